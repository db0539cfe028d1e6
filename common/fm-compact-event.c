/* fm-compact-event.c: an event with its strings interned; see fm-compact-event.h. */
#include "fm-compact-event.h"

#define INTERN_U64(m, limit) out->m = event->m;
#define INTERN_U32(m, limit) out->m = event->m;
#define INTERN_I64(m, limit) out->m = event->m;
#define INTERN_SYSCALL(m, limit) out->m = event->m;
#define INTERN_BYTES(m, limit) \
  if (!fm_strtab_intern_like (table, event->m, MIN (event->m##_len, (limit)), \
                              like ? like->m##_id : FM_STRTAB_EMPTY, &id)) \
    goto full; \
  out->m##_id = id; \
  taken++;
#define INTERN_UTF8(m, limit) INTERN_BYTES (m, limit)
#define INTERN_ERRNO(m, limit)
#define INTERN_USER(m, limit)
#define INTERN(id, m, type, limit, ...) FM_COMPACT_IF_KEPT (id, INTERN_##type (m, limit))

/* The ids of the string fields, in table order, for undoing a partial intern. */
#define ID_BYTES(m) compact->m##_id,
#define ID_UTF8(m) compact->m##_id,
#define ID_U64(m)
#define ID_U32(m)
#define ID_I64(m)
#define ID_SYSCALL(m)
#define ID_ERRNO(m)
#define ID_USER(m)
#define ID(id, m, type, ...) ID_##type (m)

static void
release_first (const FmCompactEvent *compact,
               FmStrtab             *table,
               guint                 n)
{
  const guint32 ids[] = { FM_EVENT_FIELDS (ID) };

  for (guint i = 0; i < n; i++)
    fm_strtab_release (table, ids[i]);
}

gboolean
fm_compact_event_intern (FmCompactEvent       *out,
                         const FmEvent        *event,
                         FmStrtab             *table,
                         const FmCompactEvent *like)
{
  guint taken = 0;
  guint32 id;   /* a packed member's address may be unaligned */

  FM_EVENT_FIELDS (INTERN)
  return TRUE;

full:
  release_first (out, table, taken);
  return FALSE;
}

void
fm_compact_event_release (const FmCompactEvent *compact,
                          FmStrtab             *table)
{
  const guint32 ids[] = { FM_EVENT_FIELDS (ID) };

  release_first (compact, table, G_N_ELEMENTS (ids));
}

/* The size the header's comment gives, and the figures of bench/README.md are for. */
G_STATIC_ASSERT (sizeof (FmCompactEvent) == 58);
