/* fmv-capture-explain.h: why a file opened as a capture gave no events, in words for
 * the person who chose it: what the file is instead (empty, a folder, text saved for
 * people, a raw event stream, not text at all) and where reading failed. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The bytes kept from the start of a file to tell what it is. */
#define FMV_CAPTURE_HEAD_SIZE 64

/* Replaces an error of opening or reading @file (GIO's, which name no remedy) with one
 * saying it in those words; the domain and code stay. */
void fmv_capture_explain_io_error (GFile   *file,
                                   GError **error);

/* The error for @file in which no event could be read: @head holds its first @head_len
 * bytes (at most FMV_CAPTURE_HEAD_SIZE), @size is its length, @n_bad the lines refused,
 * @first_problem where the first of them failed ("line 1 …"), or NULL when none was. */
void fmv_capture_explain_no_events (GFile         *file,
                                    const guint8  *head,
                                    gsize          head_len,
                                    guint64        size,
                                    guint          n_bad,
                                    const char    *first_problem,
                                    GError       **error);

G_END_DECLS
