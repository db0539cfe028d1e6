/* fm-strtab.c: the interned string table; see fm-strtab.h.
 *
 * Entries (header and bytes) are found by id through pages of their locations (block and
 * offset, 32 bits) that never move, and by content through an open-addressing index of
 * ids (linear probing, deletion by backward shift), 4 bytes a slot: a GHashTable would
 * cost 3 to 4 times that per string and could not say what it takes. They are cut from
 * blocks of 256 KiB, 4-byte aligned, and a released one waits on a free list of its size
 * for the next of that size: malloc would add 8 bytes of header and round to 16, about 16
 * bytes a string. The table of blocks, like the pages, is allocated once at its full size,
 * so that a reader never sees it move.
 */
#include "fm-strtab.h"

#include <string.h>

#define MAX_PAGES (1u << 16)    /* 2^28 ids */
#define MIN_SLOTS 1024u
#define ALIGN FM_STRTAB_UNIT
#define BLOCK_SIZE (ALIGN << FM_STRTAB_UNIT_BITS)  /* 256 KiB */
#define MAX_BLOCKS (1u << (32 - FM_STRTAB_UNIT_BITS))   /* 16 GiB of strings */
#define N_SIZES ((sizeof (FmStrtabEntry) + FM_STRTAB_MAX_LEN + 1) / ALIGN + 1)

struct _FmStrtab {
  guint32 **pages;              /* MAX_PAGES entries; these two first: fm_strtab_get reads */
  guint8 **blocks;              /* MAX_BLOCKS entries, BLOCK_SIZE each */
  guint n_pages;
  gatomicrefcount ref_count;

  guint32 *slots;               /* ids, 0 = free */
  guint32 mask;

  GArray *free_ids;             /* guint32, ids released for reuse */
  guint32 next_id;              /* never used yet */
  guint n_strings;

  guint n_blocks;
  gsize block_used;             /* bytes cut from the last block */
  guint32 *free_entries;        /* N_SIZES lists of released entries, by size / ALIGN: the
                                 * location + 1 of the first, 0 for none; each holds the
                                 * next one's where its header was */
  gsize free_bytes;             /* on those lists */
};

G_STATIC_ASSERT (G_STRUCT_OFFSET (FmStrtab, pages)
                 == G_STRUCT_OFFSET (struct _FmStrtabPublic, pages));
G_STATIC_ASSERT (G_STRUCT_OFFSET (FmStrtab, blocks)
                 == G_STRUCT_OFFSET (struct _FmStrtabPublic, blocks));

/* What malloc spends on an allocation of @size: glibc rounds up to 16 with an 8-byte
 * header, 32 at least. */
static gsize
allocated_size (gsize size)
{
  return MAX ((gsize) 32, (size + 8 + 15) & ~(gsize) 15);
}

/* An entry's size rounded to the alignment, in units of it: its free list. */
static gsize
entry_units (guint16 len)
{
  return (sizeof (FmStrtabEntry) + (len & ~FM_STRTAB_JOINED) + 1 + ALIGN - 1) / ALIGN;
}

/* Room for an entry of @len bytes, and its location in *@at; FALSE when the blocks are
 * all used. */
static gboolean
entry_alloc (FmStrtab *table,
             guint16   len,
             guint32  *at)
{
  gsize units = entry_units (len);
  guint32 first = table->free_entries[units];

  if (first != 0)
    {
      *at = first - 1;
      memcpy (&table->free_entries[units], fm_strtab_entry_at (table, *at), sizeof (guint32));
      table->free_bytes -= units * ALIGN;
      return TRUE;
    }
  if (table->n_blocks == 0 || table->block_used + units * ALIGN > BLOCK_SIZE)
    {
      if (table->n_blocks == MAX_BLOCKS)
        return FALSE;
      table->blocks[table->n_blocks++] = g_malloc (BLOCK_SIZE);
      table->block_used = 0;
    }
  *at = (table->n_blocks - 1) << FM_STRTAB_UNIT_BITS | table->block_used / ALIGN;
  table->block_used += units * ALIGN;
  return TRUE;
}

static void
entry_free (FmStrtab *table,
            guint32   at)
{
  FmStrtabEntry *entry = fm_strtab_entry_at (table, at);
  gsize units = entry_units (entry->len);

  G_STATIC_ASSERT (sizeof (FmStrtabEntry) >= sizeof (guint32));
  memcpy (entry, &table->free_entries[units], sizeof (guint32));
  table->free_entries[units] = at + 1;
  table->free_bytes += units * ALIGN;
}

/* Word at a time: most strings are paths of tens of bytes. The last word overlaps the
 * one before rather than being copied byte by byte (a memcpy of a variable length is a
 * library call). */
static guint32
hash_bytes (const char *s,
            guint16     len)
{
  guint64 h = 0x9e3779b97f4a7c15ull ^ len;
  guint64 w;
  gsize i = 0;

  if (len >= 8)
    {
      for (; i + 8 < len; i += 8)
        {
          memcpy (&w, s + i, 8);
          h = (h ^ w) * 0xff51afd7ed558ccdull;
          h ^= h >> 32;
        }
      memcpy (&w, s + len - 8, 8);
    }
  else
    for (w = 0; i < len; i++)
      w = (w << 8) | (guint8) s[i];
  h = (h ^ w) * 0xff51afd7ed558ccdull;
  h ^= h >> 29;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 32;
  return (guint32) h;
}

FmStrtab *
fm_strtab_new (void)
{
  FmStrtab *table = g_new0 (FmStrtab, 1);

  /* g_new0 of this size is a fresh mapping: untouched pages of it cost no memory */
  table->pages = g_new0 (guint32 *, MAX_PAGES);
  table->blocks = g_new0 (guint8 *, MAX_BLOCKS);
  g_atomic_ref_count_init (&table->ref_count);
  table->slots = g_new0 (guint32, MIN_SLOTS);
  table->mask = MIN_SLOTS - 1;
  table->free_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  table->next_id = 1;
  /* a fresh mapping too: only the lists of sizes in use are touched */
  table->free_entries = g_new0 (guint32, N_SIZES);
  return table;
}

FmStrtab *
fm_strtab_ref (FmStrtab *table)
{
  g_return_val_if_fail (table != NULL, NULL);

  g_atomic_ref_count_inc (&table->ref_count);
  return table;
}

void
fm_strtab_unref (FmStrtab *table)
{
  if (table == NULL || !g_atomic_ref_count_dec (&table->ref_count))
    return;

  for (guint i = 0; i < table->n_blocks; i++)
    g_free (table->blocks[i]);
  g_free (table->blocks);
  g_free (table->free_entries);
  for (guint i = 0; i < table->n_pages; i++)
    g_free (table->pages[i]);
  g_free (table->pages);
  g_free (table->slots);
  g_array_unref (table->free_ids);
  g_free (table);
}

static void
index_insert (FmStrtab *table,
              guint32  *slots,
              guint32   mask,
              guint32   id)
{
  guint32 i = fm_strtab_entry (table, id)->hash & mask;

  while (slots[i] != 0)
    i = (i + 1) & mask;
  slots[i] = id;
}

static void
index_grow (FmStrtab *table)
{
  guint32 new_mask = table->mask * 2 + 1;
  guint32 *slots = g_new0 (guint32, (gsize) new_mask + 1);

  for (guint32 i = 0; i <= table->mask; i++)
    if (table->slots[i] != 0)
      index_insert (table, slots, new_mask, table->slots[i]);
  g_free (table->slots);
  table->slots = slots;
  table->mask = new_mask;
}

static void
index_remove (FmStrtab *table,
              guint32   id)
{
  guint32 mask = table->mask;
  guint32 i = fm_strtab_entry (table, id)->hash & mask;
  guint32 j;

  while (table->slots[i] != id)
    i = (i + 1) & mask;

  /* Backward shift: move up every later entry of the run that may sit in the hole. */
  for (j = (i + 1) & mask; table->slots[j] != 0; j = (j + 1) & mask)
    {
      guint32 home = fm_strtab_entry (table, table->slots[j])->hash & mask;

      if (((j - home) & mask) >= ((j - i) & mask))
        {
          table->slots[i] = table->slots[j];
          i = j;
        }
    }
  table->slots[i] = 0;
}

static gboolean
take_id (FmStrtab *table,
         guint32  *id)
{
  if (table->free_ids->len > 0)
    {
      *id = g_array_index (table->free_ids, guint32, table->free_ids->len - 1);
      g_array_set_size (table->free_ids, table->free_ids->len - 1);
      return TRUE;
    }
  if (table->next_id >> FM_STRTAB_PAGE_SHIFT >= MAX_PAGES)
    return FALSE;
  if (table->next_id >> FM_STRTAB_PAGE_SHIFT >= table->n_pages)
    table->pages[table->n_pages++] = g_new (guint32, FM_STRTAB_PAGE_IDS);
  *id = table->next_id++;
  return TRUE;
}

/* The id of the entry whose len is @len (a joined one's with its flag) and whose bytes are
 * the ones at @s. */
static gboolean
intern_bytes (FmStrtab   *table,
              const char *s,
              guint16     len,
              guint32    *id,
              gboolean   *is_new)
{
  guint16 n = len & ~FM_STRTAB_JOINED;
  guint32 hash = hash_bytes (s, n);
  guint32 i, at;
  FmStrtabEntry *entry;

  for (i = hash & table->mask; table->slots[i] != 0; i = (i + 1) & table->mask)
    {
      entry = fm_strtab_entry (table, table->slots[i]);
      if (entry->hash == hash && entry->len == len && memcmp (entry->bytes, s, n) == 0)
        {
          entry->refs++;
          *id = table->slots[i];
          *is_new = FALSE;
          return TRUE;
        }
    }

  if (!take_id (table, id))
    return FALSE;
  if (!entry_alloc (table, n, &at))
    {
      g_array_append_val (table->free_ids, *id);
      return FALSE;
    }

  entry = fm_strtab_entry_at (table, at);
  entry->refs = 1;
  entry->hash = hash;
  entry->len = len;
  memcpy (entry->bytes, s, n);
  entry->bytes[n] = '\0';
  table->pages[*id >> FM_STRTAB_PAGE_SHIFT][*id & (FM_STRTAB_PAGE_IDS - 1)] = at;
  table->n_strings++;

  /* at most 3/4 full, so that probes stay short */
  if ((table->n_strings + 1) * 4 > ((gsize) table->mask + 1) * 3)
    {
      index_grow (table);
      index_insert (table, table->slots, table->mask, *id);
    }
  else
    table->slots[i] = *id;
  *is_new = TRUE;
  return TRUE;
}

gboolean
fm_strtab_intern (FmStrtab   *table,
                  const char *s,
                  guint16     len,
                  guint32    *id)
{
  gboolean is_new;

  g_return_val_if_fail (len <= FM_STRTAB_MAX_LEN, FALSE);

  if (len == 0)
    {
      *id = FM_STRTAB_EMPTY;
      return TRUE;
    }
  return intern_bytes (table, s, len, id, &is_new);
}

gboolean
fm_strtab_intern_joined (FmStrtab   *table,
                         guint32     parent,
                         const char *tail,
                         guint16     len,
                         guint32    *id)
{
  char key[FM_STRTAB_MAX_LEN + 1];
  guint16 parent_len;
  gboolean is_new;

  g_return_val_if_fail (parent != FM_STRTAB_EMPTY && !fm_strtab_is_joined (table, parent), FALSE);

  fm_strtab_get (table, parent, &parent_len);
  if ((gsize) parent_len + len > FM_STRTAB_MAX_LEN || sizeof parent + len > FM_STRTAB_MAX_LEN)
    return FALSE;
  memcpy (key, &parent, sizeof parent);
  memcpy (key + sizeof parent, tail, len);
  if (!intern_bytes (table, key, (sizeof parent + len) | FM_STRTAB_JOINED, id, &is_new))
    return FALSE;
  if (is_new)
    fm_strtab_entry (table, parent)->refs++;
  return TRUE;
}

void
fm_strtab_release (FmStrtab *table,
                   guint32   id)
{
  FmStrtabEntry *entry;
  guint32 parent = FM_STRTAB_EMPTY;

  if (id == FM_STRTAB_EMPTY)
    return;

  entry = fm_strtab_entry (table, id);
  g_assert (entry->refs > 0);
  if (--entry->refs > 0)
    return;

  if (entry->len & FM_STRTAB_JOINED)
    memcpy (&parent, entry->bytes, sizeof parent);
  index_remove (table, id);
  table->n_strings--;
  g_array_append_val (table->free_ids, id);
  entry_free (table, fm_strtab_location (table, id));
  fm_strtab_release (table, parent);
}

guint32
fm_strtab_get_id_bound (FmStrtab *table)
{
  return table->next_id;
}

guint
fm_strtab_get_n_strings (FmStrtab *table)
{
  return table->n_strings;
}

gsize
fm_strtab_get_memory (FmStrtab *table)
{
  /* What the strings held take: released entries wait for strings of their size (as
   * malloc keeps what is freed), and a byte bound counting them would never see memory
   * go down when events go. Untouched block tails cost nothing. */
  return (table->n_blocks > 0 ? (table->n_blocks - 1) * BLOCK_SIZE + table->block_used : 0)
         - table->free_bytes
         + ((gsize) table->mask + 1) * sizeof (guint32)
         + (gsize) table->n_pages * allocated_size (FM_STRTAB_PAGE_IDS * sizeof (guint32))
         + table->free_ids->len * sizeof (guint32);
}
