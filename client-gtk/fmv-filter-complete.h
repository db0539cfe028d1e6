/* fmv-filter-complete.h: Tab completion in the filter entry: a field name from the field
 * table (completed with its operator, "errno="), a syscall name after syscall=, an errno
 * name after errno=. No display needed: the tests call it directly. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  char *text;        /* the text with the word completed as far as it is unambiguous */
  gsize cursor;      /* byte offset of the end of the completed word in @text */
  GPtrArray *words;  /* (char *) what the word could become when several, sorted */
  gsize word_start;  /* byte offset of the word in @text */
  const char *suffix; /* what follows a word once it is complete: " " after a value */
} FmvCompletion;

/* Completes the word that ends at byte @cursor of @text. NULL when nothing can complete
 * it (not a field, no value list for the field, no match). */
FmvCompletion *fmv_filter_complete (const char *text,
                                    gsize       cursor);
void fmv_completion_free (FmvCompletion *completion);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmvCompletion, fmv_completion_free)

G_END_DECLS
