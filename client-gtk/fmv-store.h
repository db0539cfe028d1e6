/* fmv-store.h: the viewer's backing store, an array of compact events holding the newest
 * N (the history depth).
 *
 * A million events must fit in little memory and never move once written, so rows are
 * kept much as the daemon's ring keeps them (fm-compact-event.h): 42 bytes of fixed
 * fields and ids, each string a capture repeats held once, the process fields once per
 * thread, a path's directory once for its files, and the sequence number only where rows
 * stop being consecutive events. Nothing per row is a GObject; fmv-event-list.c creates
 * row objects only for the rows a view asks for.
 *
 * Row numbers are absolute: the first row appended is 0 for the store's life, and the
 * rows held are [first row, n rows). Past the depth the oldest rows go; their memory (and
 * the strings only they named) is given back a whole page of rows at a time.
 *
 * One thread appends (the owner: the main thread for a store shown in a window, the
 * loader's thread while a file is read); any number of threads may read rows that existed
 * when they started (the filter, sort, analysis and save workers), each between
 * fmv_store_hold() and fmv_store_unhold(): while any hold is out the oldest rows still
 * leave the count (the first row moves on) but their memory stays, so a worker never reads
 * a freed page or a string whose id was given to another; it goes when the last hold ends.
 * On the owner's thread, "releasing" is emitted just before memory goes, so that a view
 * holding row numbers drops the rows that go first.
 */
#pragma once

#include <glib-object.h>

#include "fm-compact-event.h"
#include "fm-event.h"

G_BEGIN_DECLS

#define FMV_TYPE_STORE (fmv_store_get_type ())
G_DECLARE_FINAL_TYPE (FmvStore, fmv_store, FMV, STORE, GObject)

/* The rows the store frees at once when the oldest go. */
#define FMV_STORE_PAGE_ROWS 65536u

FmvStore *fmv_store_new (void);

/* Copies @event into the store and returns its row number; when that makes more rows than
 * the depth, the oldest go. Returns FALSE (and stores nothing) only when the store is full
 * (4 Gi rows appended in its life, a billion held, or 268 million distinct strings). */
gboolean fmv_store_append (FmvStore      *self,
                           const FmEvent *event,
                           guint         *row_out);

/* The number of rows kept (0: no bound). A smaller depth lets the oldest rows go now.
 * The owner's thread only. */
void fmv_store_set_depth (FmvStore *self,
                          guint     depth);
guint fmv_store_get_depth (FmvStore *self);

/* One past the newest row appended (rows let go included); safe to call from any thread. */
guint fmv_store_get_n_rows (FmvStore *self);
/* The oldest row held: also how many were let go. Safe to call from any thread. */
guint fmv_store_get_first_row (FmvStore *self);
/* Whether row @row is held (first row <= @row < n rows). */
gboolean fmv_store_has_row (FmvStore *self,
                            guint     row);

/* Removes from @rows (guint32 row numbers) those the store let go, keeping the order of
 * the others; returns whether it removed any. */
gboolean fmv_store_forget_gone_rows (FmvStore *self,
                                     GArray   *rows);

/* For a worker thread about to read rows: from the owner's thread before it starts, and
 * unhold (from any thread) once it read its last row. See the header comment. */
void fmv_store_hold (FmvStore *self);
void fmv_store_unhold (FmvStore *self);

/* An event read from the store (.event), its fields and string ids (.record, for a
 * filter's memo), and the room its paths are put together in: the store keeps a path as
 * its directory and its name (fm_strtab_intern_joined), so that a capture of many files
 * in few directories holds each directory once. */
typedef struct {
  FmEvent event;
  FmCompactEvent record;
  char path[FM_PATH_MAX + 1];
  char path2[FM_PATH_MAX + 1];
} FmvStoreEvent;

/* A view of row @row (< n_rows, held, or read under a hold taken while it was): @stored's
 * event, returned. Its paths point into @stored, its other strings into the store (valid
 * as long as the row's memory is). */
const FmEvent *fmv_store_get_event (FmvStore      *self,
                                    guint          row,
                                    FmvStoreEvent *stored);
/* fmv_store_get_event with the paths left empty, for a reader that never looks at them
 * (a filter that reads no path, fm_filter_reads_paths): putting them together is most of
 * what reading a row costs. */
FmEvent *fmv_store_get_event_without_paths (FmvStore      *self,
                                            guint          row,
                                            FmvStoreEvent *stored);
/* The same, in @stored's event, for a row that may have gone (a row object outliving
 * its row): FALSE and an empty event (zeros, empty strings) when its memory has. The
 * owner's thread. */
gboolean fmv_store_get_event_if_held (FmvStore      *self,
                                      guint          row,
                                      FmvStoreEvent *stored);

/* The string of id @id (a string id of a held row's record, fmv_store_get_record),
 * NUL-terminated, and its length: in @buf (FM_PATH_MAX + 1 bytes) when the store keeps
 * it in pieces, in the store otherwise. */
const char *fmv_store_get_string (FmvStore *self,
                                  guint32   id,
                                  char     *buf,
                                  guint16  *len);
/* strcmp() of the strings of two such ids, without putting them together. */
int fmv_store_compare_strings (FmvStore *self,
                               guint32   a,
                               guint32   b);

/* Row @row's fields and string ids (as fmv_store_get_event reads it) in @record,
 * returned: for sorting and counting by id, and a filter's memo (fm-filter-memo.h). */
const FmCompactEvent *fmv_store_get_record (FmvStore       *self,
                                            guint           row,
                                            FmCompactEvent *record);
/* One past the highest string id the rows hold now, for a filter's memo. The owner's
 * thread. */
guint32 fmv_store_get_string_id_bound (FmvStore *self);

/* Fast accessors for the hot loops (sorting, failure navigation). */
gint64 fmv_store_get_result (FmvStore *self,
                             guint     row);

/* Bytes the store holds (records, strings, page table), for the measurements. */
gsize fmv_store_get_memory_size (FmvStore *self);
/* Distinct strings the store holds (a joined path's directory and its name count as
 * two, a task as one). */
guint fmv_store_get_n_strings (FmvStore *self);

/* The highest sequence number appended, 0 when empty. */
guint64 fmv_store_get_last_seq (FmvStore *self);

G_END_DECLS
