/* fm-strtab.h: a table of interned byte strings, for the strings a capture repeats.
 *
 * A capture names the same few thousand paths, commands and flag sets millions of times;
 * the daemon's ring and the viewer's store keep each of them once here and a 32-bit id
 * per event (fm-compact-event.h). Each id carries references: intern takes one, release
 * drops one, and the string goes (its id free for reuse) with the last.
 *
 * Id 0 is the empty string, always present and never counted.
 *
 * A joined string is another string's (its parent, a plain string) followed by its own
 * bytes (its tail): the viewer keeps a path as its directory and its name, so that a
 * capture of many files in few directories holds each directory once. A joined id is
 * read in its two pieces (fm_strtab_get_piece), never with fm_strtab_get; it holds a
 * reference to its parent while it lives.
 *
 * Threads: intern and release from one thread only (the owner's). fm_strtab_get may run
 * on any thread for an id it holds a reference to, or, when nothing is ever released (an
 * append-only store), for any id interned before the reader learned of it: an entry
 * never moves while referenced, and the table of entries never reallocates.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define FM_STRTAB_EMPTY 0u
/* The longest string, plain or joined (its parent and tail together). */
#define FM_STRTAB_MAX_LEN 0x7fffu

typedef struct _FmStrtab FmStrtab;

FmStrtab *fm_strtab_new (void);
/* Atomic: a table may outlive its owner in the hands of a reader thread. */
FmStrtab *fm_strtab_ref (FmStrtab *table);
void fm_strtab_unref (FmStrtab *table);

/* The id of the @len bytes at @s (at most FM_STRTAB_MAX_LEN; text, or the bytes of a
 * small struct: read back with a NUL after them), with one more reference. FALSE when
 * the table holds as many strings as ids exist (about 268 million), or 16 GiB of them. */
gboolean fm_strtab_intern (FmStrtab   *table,
                           const char *s,
                           guint16     len,
                           guint32    *id);
/* The id of the joined string of @parent (a plain, non-empty id the caller holds) and the
 * @len bytes at @tail, with one more reference; a new one takes its own reference to
 * @parent. FALSE as fm_strtab_intern, and when the two are longer than FM_STRTAB_MAX_LEN
 * together. */
gboolean fm_strtab_intern_joined (FmStrtab   *table,
                                  guint32     parent,
                                  const char *tail,
                                  guint16     len,
                                  guint32    *id);
/* fm_strtab_intern, trying first whether the string is the one of @hint (a live id the
 * caller holds, or FM_STRTAB_EMPTY): consecutive events mostly repeat the command, the
 * flags and often the path of the one before, and comparing with one string is cheaper
 * than hashing and probing. */
static inline gboolean fm_strtab_intern_like (FmStrtab   *table,
                                              const char *s,
                                              guint16     len,
                                              guint32     hint,
                                              guint32    *id);
/* fm_strtab_intern_joined, trying first whether the string is the one of @hint, as
 * fm_strtab_intern_like does. */
static inline gboolean fm_strtab_intern_joined_like (FmStrtab   *table,
                                                     guint32     parent,
                                                     const char *tail,
                                                     guint16     len,
                                                     guint32     hint,
                                                     guint32    *id);
/* Drops a reference taken by fm_strtab_intern. */
void fm_strtab_release (FmStrtab *table,
                        guint32   id);

/* The string of a live plain id, NUL-terminated, and its length (for a joined id, the
 * bytes it keeps: its parent's id, then its tail). */
static inline const char *fm_strtab_get (FmStrtab *table,
                                         guint32   id,
                                         guint16  *len);
/* The bytes of a live id: a plain string's (*@parent FM_STRTAB_EMPTY), or a joined
 * string's tail (*@parent its parent), NUL-terminated, and their length. One lookup, for
 * readers that take either. */
static inline const char *fm_strtab_get_piece (FmStrtab *table,
                                               guint32   id,
                                               guint32  *parent,
                                               guint16  *len);
/* Whether a live id is a joined string's. */
static inline gboolean fm_strtab_is_joined (FmStrtab *table,
                                            guint32   id);

/* One past the highest id given out so far: every live id is below it. The owner's
 * thread. */
guint32 fm_strtab_get_id_bound (FmStrtab *table);
/* Distinct strings held now (the empty string excluded). */
guint fm_strtab_get_n_strings (FmStrtab *table);
/* Bytes of memory the table takes now: the entries held (headers, bytes, alignment),
 * the hash index and the pages of the id table. */
gsize fm_strtab_get_memory (FmStrtab *table);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FmStrtab, fm_strtab_unref)

/* ---- inline part: what runs for every string of every event appended or viewed ---- */

#include <string.h>

#define FM_STRTAB_PAGE_SHIFT 12
#define FM_STRTAB_PAGE_IDS (1u << FM_STRTAB_PAGE_SHIFT)

/* In an entry's len: a joined string's, whose bytes are its parent's id (host order) and
 * then its tail. */
#define FM_STRTAB_JOINED 0x8000u

typedef struct {
  guint32 refs;
  guint32 hash;
  guint16 len;    /* of bytes[], with FM_STRTAB_JOINED for a joined string */
  char bytes[];
} FmStrtabEntry;

/* Where an entry lies: its block's index, and its offset in the block in units of the
 * entries' alignment (4 bytes: a block of 256 KiB needs 16 bits). 4 bytes a string where
 * a pointer would take 8. */
#define FM_STRTAB_UNIT_BITS 16
#define FM_STRTAB_UNIT ((gsize) G_ALIGNOF (FmStrtabEntry))

struct _FmStrtabPublic {
  guint32 **pages;        /* by id: the entry's location */
  guint8 **blocks;        /* by block index */
};

/* Where the entry of a live id lies. */
static inline guint32
fm_strtab_location (FmStrtab *table,
                    guint32   id)
{
  return ((const struct _FmStrtabPublic *) table)->pages[id >> FM_STRTAB_PAGE_SHIFT]
                                                       [id & (FM_STRTAB_PAGE_IDS - 1)];
}

/* The entry at a location. */
static inline FmStrtabEntry *
fm_strtab_entry_at (FmStrtab *table,
                    guint32   at)
{
  guint8 *block = ((const struct _FmStrtabPublic *) table)->blocks[at >> FM_STRTAB_UNIT_BITS];

  return (FmStrtabEntry *) (void *) (block + (at & ((1u << FM_STRTAB_UNIT_BITS) - 1)) * FM_STRTAB_UNIT);
}

static inline FmStrtabEntry *
fm_strtab_entry (FmStrtab *table,
                 guint32   id)
{
  return fm_strtab_entry_at (table, fm_strtab_location (table, id));
}

static inline const char *
fm_strtab_get (FmStrtab *table,
               guint32   id,
               guint16  *len)
{
  const FmStrtabEntry *entry;

  if (id == FM_STRTAB_EMPTY)
    {
      *len = 0;
      return "";
    }
  entry = fm_strtab_entry (table, id);
  *len = entry->len;
  return entry->bytes;
}

static inline const char *
fm_strtab_get_piece (FmStrtab *table,
                     guint32   id,
                     guint32  *parent,
                     guint16  *len)
{
  const FmStrtabEntry *entry;

  *parent = FM_STRTAB_EMPTY;
  if (id == FM_STRTAB_EMPTY)
    {
      *len = 0;
      return "";
    }
  entry = fm_strtab_entry (table, id);
  if (!(entry->len & FM_STRTAB_JOINED))
    {
      *len = entry->len;
      return entry->bytes;
    }
  memcpy (parent, entry->bytes, sizeof *parent);
  *len = (entry->len & ~FM_STRTAB_JOINED) - sizeof *parent;
  return entry->bytes + sizeof *parent;
}

static inline gboolean
fm_strtab_is_joined (FmStrtab *table,
                     guint32   id)
{
  return id != FM_STRTAB_EMPTY && (fm_strtab_entry (table, id)->len & FM_STRTAB_JOINED) != 0;
}

static inline gboolean
fm_strtab_intern_like (FmStrtab   *table,
                       const char *s,
                       guint16     len,
                       guint32     hint,
                       guint32    *id)
{
  if (hint != FM_STRTAB_EMPTY)
    {
      FmStrtabEntry *entry = fm_strtab_entry (table, hint);

      if (entry->len == len && memcmp (entry->bytes, s, len) == 0)
        {
          entry->refs++;
          *id = hint;
          return TRUE;
        }
    }
  return fm_strtab_intern (table, s, len, id);
}

static inline gboolean
fm_strtab_intern_joined_like (FmStrtab   *table,
                              guint32     parent,
                              const char *tail,
                              guint16     len,
                              guint32     hint,
                              guint32    *id)
{
  guint32 hint_parent;
  guint16 hint_len;
  const char *hint_tail = fm_strtab_get_piece (table, hint, &hint_parent, &hint_len);

  if (hint_parent == parent && hint_len == len && memcmp (hint_tail, tail, len) == 0)
    {
      fm_strtab_entry (table, hint)->refs++;
      *id = hint;
      return TRUE;
    }
  return fm_strtab_intern_joined (table, parent, tail, len, id);
}

G_END_DECLS
