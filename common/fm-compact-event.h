/* fm-compact-event.h: an event as the daemon's ring keeps it, and as the viewer's store
 * reads its rows back (fmv-store.c keeps it smaller still: the process fields as one id).
 *
 * The fixed fields as they are and each string as an id in an FmStrtab (fm-strtab.h),
 * packed: 58 bytes, where the stream's record (fm-stream.h) takes 64 and its strings
 * (100 to 200 bytes for a typical path, command and flags). The sequence number is left
 * out: the ring knows it from an event's position, the store from its page's first row
 * (8 bytes of a million events are 8 MB of the daemon's memory). The members come from the
 * field table (fm-event-fields.h); the stream record is made again from it on the way
 * out (fm_compact_event_view, then fm_record_encode_event), byte for byte the record
 * the event would have had.
 *
 * Host byte order: it never leaves the process.
 */
#pragma once

#include <glib.h>

#include "fm-event.h"
#include "fm-strtab.h"

G_BEGIN_DECLS

/* A field is left out when FM_COMPACT_OMIT_<ID> is defined as "~, 1" (the second
 * argument that FM_COMPACT_SECOND then finds instead of the 0). */
#define FM_COMPACT_OMIT_SEQ ~, 1
#define FM_COMPACT_SECOND_(a, b, ...) b
#define FM_COMPACT_SECOND(...) FM_COMPACT_SECOND_ (__VA_ARGS__)
#define FM_COMPACT_CAT_(a, b) a##b
#define FM_COMPACT_CAT(a, b) FM_COMPACT_CAT_ (a, b)
#define FM_COMPACT_KEEP_0(...) __VA_ARGS__
#define FM_COMPACT_KEEP_1(...)
/* Its arguments when the field @id is kept, nothing when it is left out. */
#define FM_COMPACT_IF_KEPT(id, ...) \
  FM_COMPACT_CAT (FM_COMPACT_KEEP_, FM_COMPACT_SECOND (FM_COMPACT_OMIT_##id, 0, 0)) (__VA_ARGS__)

#define FM_COMPACT_MEMBER_U64(m) guint64 m;
#define FM_COMPACT_MEMBER_U32(m) guint32 m;
#define FM_COMPACT_MEMBER_I64(m) gint64 m;
#define FM_COMPACT_MEMBER_SYSCALL(m) guint16 m;
#define FM_COMPACT_MEMBER_BYTES(m) guint32 m##_id;
#define FM_COMPACT_MEMBER_UTF8(m) guint32 m##_id;
#define FM_COMPACT_MEMBER_ERRNO(m)
#define FM_COMPACT_MEMBER_USER(m)
#define FM_COMPACT_MEMBER(id, m, type, ...) FM_COMPACT_IF_KEPT (id, FM_COMPACT_MEMBER_##type (m))

typedef struct __attribute__ ((packed)) {
  FM_EVENT_FIELDS (FM_COMPACT_MEMBER)
} FmCompactEvent;

/* Fills @out from @event (but its seq), each string (clamped to its limit, as the stream's encoder
 * clamps it) interned in @table with one reference. @like, when not NULL, is an event
 * whose ids the caller holds, likely to share strings with this one (the one appended
 * before). FALSE, holding nothing, when the table is full. */
gboolean fm_compact_event_intern (FmCompactEvent       *out,
                                  const FmEvent        *event,
                                  FmStrtab             *table,
                                  const FmCompactEvent *like);

/* Drops the references fm_compact_event_intern took. */
void fm_compact_event_release (const FmCompactEvent *compact,
                               FmStrtab             *table);

#define FM_COMPACT_VIEW_U64(m) event->m = compact->m;
#define FM_COMPACT_VIEW_U32(m) event->m = compact->m;
#define FM_COMPACT_VIEW_I64(m) event->m = compact->m;
#define FM_COMPACT_VIEW_SYSCALL(m) event->m = compact->m;
#define FM_COMPACT_VIEW_BYTES(m) event->m = fm_strtab_get (table, compact->m##_id, &event->m##_len);
#define FM_COMPACT_VIEW_UTF8(m) FM_COMPACT_VIEW_BYTES (m)
#define FM_COMPACT_VIEW_ERRNO(m)
#define FM_COMPACT_VIEW_USER(m)
#define FM_COMPACT_VIEW(id, m, type, ...) FM_COMPACT_IF_KEPT (id, FM_COMPACT_VIEW_##type (m))

/* The event, its strings pointing into @table (valid while the ids are held), with
 * @seq. Inline: it runs for every event replayed, saved or viewed. */
static inline void
fm_compact_event_view (const FmCompactEvent *compact,
                       guint64               seq,
                       FmStrtab             *table,
                       FmEvent              *event)
{
  event->seq = seq;
  FM_EVENT_FIELDS (FM_COMPACT_VIEW)
}

G_END_DECLS
