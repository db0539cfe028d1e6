/* fm-syscalls-detail.c: the argument decoders of fm-syscalls.h and the event detail text
 * built from them (flags, modes, sizes, argv), always valid UTF-8 and below FM_DETAIL_MAX.
 *
 * Flag values are the kernel's x86_64 ABI values written out here rather than taken from
 * glibc: glibc defines O_LARGEFILE as 0 on 64-bit, lacks the newer STATX_* and AT_* bits
 * on older releases, and the syscall arguments we decode are what the kernel saw.
 */
#include "fm-syscalls.h"
#include "fm-escape.h"
#include "fm-event.h"

#include <stdarg.h>
#include <string.h>

/* --- flag decoders ----------------------------------------------------------------------- */

typedef struct {
  guint64 value;    /* all of these bits must be set */
  guint64 unless;   /* ...and none of these (a composite flag that includes value wins) */
  const char *name;
} Flag;

/* Appends the names of the set flags in table order, then any bits no name took as hex;
 * @zero is written when nothing at all is set. */
static void
decode_flags (GString    *out,
              guint64     flags,
              const Flag *table,
              gsize       n_table,
              const char *zero)
{
  guint64 taken = 0;
  gboolean any = FALSE;

  for (gsize i = 0; i < n_table; i++)
    if ((flags & table[i].value) == table[i].value && (flags & table[i].unless) == 0)
      {
        if (any)
          g_string_append_c (out, '|');
        g_string_append (out, table[i].name);
        taken |= table[i].value;
        any = TRUE;
      }
  if ((flags & ~taken) != 0)
    g_string_append_printf (out, "%s0x%" G_GINT64_MODIFIER "x", any ? "|" : "", flags & ~taken);
  else if (!any)
    g_string_append (out, zero);
}

/* x86_64 <asm-generic/fcntl.h> values */
#define K_O_ACCMODE   03
#define K_O_CREAT     0100
#define K_O_DSYNC     010000
#define K_O_DIRECTORY 0200000
#define K_O___SYNC    04000000
#define K_O___TMPFILE 020000000

static const Flag open_flags[] = {
  { K_O_CREAT, 0, "O_CREAT" },
  { 0200, 0, "O_EXCL" },
  { 0400, 0, "O_NOCTTY" },
  { 01000, 0, "O_TRUNC" },
  { 02000, 0, "O_APPEND" },
  { 04000, 0, "O_NONBLOCK" },
  { K_O_DSYNC, K_O___SYNC, "O_DSYNC" },
  { 020000, 0, "O_ASYNC" },
  { 040000, 0, "O_DIRECT" },
  { 0100000, 0, "O_LARGEFILE" },
  { K_O_DIRECTORY, K_O___TMPFILE, "O_DIRECTORY" },
  { 0400000, 0, "O_NOFOLLOW" },
  { 01000000, 0, "O_NOATIME" },
  { 02000000, 0, "O_CLOEXEC" },
  { K_O___SYNC | K_O_DSYNC, 0, "O_SYNC" },
  { 010000000, 0, "O_PATH" },
  { K_O___TMPFILE | K_O_DIRECTORY, 0, "O_TMPFILE" },
};

void
fm_decode_open_flags (GString *out,
                      guint64  flags)
{
  static const char *const accmode[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };
  guint64 rest = flags & ~(guint64) K_O_ACCMODE;

  g_return_if_fail (out != NULL);
  /* the access mode is a 2-bit number, not a flag: O_RDONLY is 0 and always shown */
  g_string_append (out, accmode[flags & K_O_ACCMODE]);
  if (rest != 0)
    {
      g_string_append_c (out, '|');
      decode_flags (out, rest, open_flags, G_N_ELEMENTS (open_flags), "");
    }
}

void
fm_decode_mode (GString *out,
                guint64  mode)
{
  static const struct { guint32 type; const char *name; } types[] = {
    { 0140000, "S_IFSOCK" }, { 0120000, "S_IFLNK" }, { 0100000, "S_IFREG" },
    { 0060000, "S_IFBLK" }, { 0040000, "S_IFDIR" }, { 0020000, "S_IFCHR" },
    { 0010000, "S_IFIFO" },
  };
  guint32 type = mode & 0170000;
  guint64 high = mode & ~(guint64) 0177777;

  g_return_if_fail (out != NULL);
  if (type == 0)
    g_string_append_printf (out, "%04o", (guint) (mode & 07777));
  else
    {
      const char *name = NULL;

      for (gsize i = 0; i < G_N_ELEMENTS (types); i++)
        if (types[i].type == type)
          name = types[i].name;
      if (name != NULL)
        g_string_append_printf (out, "%s|%04o", name, (guint) (mode & 07777));
      else
        g_string_append_printf (out, "0%o", (guint) (mode & 0177777));
    }
  if (high != 0)
    g_string_append_printf (out, "|0x%" G_GINT64_MODIFIER "x", high);
}

/* 0x200 is AT_REMOVEDIR for unlinkat and AT_EACCESS for faccessat2: the syscall decides. */
#define K_AT_REMOVEDIR_OR_EACCESS 0x200

static void
decode_at_flags (GString   *out,
                 guint64    flags,
                 gboolean   eaccess)
{
  const Flag table[] = {
    { 0x100, 0, "AT_SYMLINK_NOFOLLOW" },
    { K_AT_REMOVEDIR_OR_EACCESS, 0, eaccess ? "AT_EACCESS" : "AT_REMOVEDIR" },
    { 0x400, 0, "AT_SYMLINK_FOLLOW" },
    { 0x800, 0, "AT_NO_AUTOMOUNT" },
    { 0x1000, 0, "AT_EMPTY_PATH" },
    /* a 2-bit field: both bits together are not a valid value and stay hex */
    { 0x2000, 0x4000, "AT_STATX_FORCE_SYNC" },
    { 0x4000, 0x2000, "AT_STATX_DONT_SYNC" },
    { 0x8000, 0, "AT_RECURSIVE" },
  };

  decode_flags (out, flags, table, G_N_ELEMENTS (table), "0");
}

static void
decode_at_flags_eaccess (GString *out,
                         guint64  flags)
{
  decode_at_flags (out, flags, TRUE);
}

/* Names 0x200 AT_REMOVEDIR, the meaning for all but faccessat2 (FM_ARG_ACCESS_AT_FLAGS). */
void
fm_decode_at_flags (GString *out,
                    guint64  flags)
{
  g_return_if_fail (out != NULL);
  decode_at_flags (out, flags, FALSE);
}

void
fm_decode_access_mode (GString *out,
                       guint64  mode)
{
  static const Flag table[] = { { 4, 0, "R_OK" }, { 2, 0, "W_OK" }, { 1, 0, "X_OK" } };

  g_return_if_fail (out != NULL);
  decode_flags (out, mode, table, G_N_ELEMENTS (table), "F_OK");
}

void
fm_decode_rename_flags (GString *out,
                        guint64  flags)
{
  static const Flag table[] = {
    { 1, 0, "RENAME_NOREPLACE" }, { 2, 0, "RENAME_EXCHANGE" }, { 4, 0, "RENAME_WHITEOUT" },
  };

  g_return_if_fail (out != NULL);
  decode_flags (out, flags, table, G_N_ELEMENTS (table), "0");
}

void
fm_decode_statx_mask (GString *out,
                      guint64  mask)
{
  static const Flag table[] = {
    { 0x1, 0, "STATX_TYPE" }, { 0x2, 0, "STATX_MODE" }, { 0x4, 0, "STATX_NLINK" },
    { 0x8, 0, "STATX_UID" }, { 0x10, 0, "STATX_GID" }, { 0x20, 0, "STATX_ATIME" },
    { 0x40, 0, "STATX_MTIME" }, { 0x80, 0, "STATX_CTIME" }, { 0x100, 0, "STATX_INO" },
    { 0x200, 0, "STATX_SIZE" }, { 0x400, 0, "STATX_BLOCKS" },
    { 0x800, 0, "STATX_BTIME" }, { 0x1000, 0, "STATX_MNT_ID" }, { 0x2000, 0, "STATX_DIOALIGN" },
    { 0x4000, 0, "STATX_MNT_ID_UNIQUE" }, { 0x8000, 0, "STATX_SUBVOL" },
    { 0x10000, 0, "STATX_WRITE_ATOMIC" }, { 0x20000, 0, "STATX_DIO_READ_ALIGN" },
  };
  const guint64 basic = 0x7ff;

  g_return_if_fail (out != NULL);
  /* what stat(2) callers ask for: a full basic set reads better as its own name */
  if ((mask & basic) == basic)
    {
      g_string_append (out, "STATX_BASIC_STATS");
      mask &= ~basic;
      if (mask == 0)
        return;
      g_string_append_c (out, '|');
    }
  decode_flags (out, mask, table, G_N_ELEMENTS (table), "0");
}

void
fm_decode_xattr_flags (GString *out,
                       guint64  flags)
{
  static const Flag table[] = { { 1, 0, "XATTR_CREATE" }, { 2, 0, "XATTR_REPLACE" } };

  g_return_if_fail (out != NULL);
  decode_flags (out, flags, table, G_N_ELEMENTS (table), "0");
}

void
fm_decode_resolve_flags (GString *out,
                         guint64  flags)
{
  static const Flag table[] = {
    { 0x01, 0, "RESOLVE_NO_XDEV" }, { 0x02, 0, "RESOLVE_NO_MAGICLINKS" },
    { 0x04, 0, "RESOLVE_NO_SYMLINKS" }, { 0x08, 0, "RESOLVE_BENEATH" },
    { 0x10, 0, "RESOLVE_IN_ROOT" }, { 0x20, 0, "RESOLVE_CACHED" },
  };

  g_return_if_fail (out != NULL);
  decode_flags (out, flags, table, G_N_ELEMENTS (table), "0");
}


/* Flag sets of the read, write, sync, lock and mount calls, in the kernel's x86_64 values.
 * A table is its flags; FLAGS_DECODER makes its decoder, which writes @zero for 0. */
#define FLAGS_DECODER(fn, table, zero) \
  static void \
  fn (GString *out, guint64 value) \
  { \
    decode_flags (out, value, table, G_N_ELEMENTS (table), zero); \
  }

static const Flag rwf_flags[] = {
  { 0x01, 0, "RWF_HIPRI" }, { 0x02, 0, "RWF_DSYNC" }, { 0x04, 0, "RWF_SYNC" },
  { 0x08, 0, "RWF_NOWAIT" }, { 0x10, 0, "RWF_APPEND" }, { 0x20, 0, "RWF_NOAPPEND" },
  { 0x40, 0, "RWF_ATOMIC" }, { 0x80, 0, "RWF_DONTCACHE" },
};
FLAGS_DECODER (decode_rwf_flags, rwf_flags, "0")

static const Flag falloc_modes[] = {
  { 0x01, 0, "FALLOC_FL_KEEP_SIZE" }, { 0x02, 0, "FALLOC_FL_PUNCH_HOLE" },
  { 0x04, 0, "FALLOC_FL_NO_HIDE_STALE" }, { 0x08, 0, "FALLOC_FL_COLLAPSE_RANGE" },
  { 0x10, 0, "FALLOC_FL_ZERO_RANGE" }, { 0x20, 0, "FALLOC_FL_INSERT_RANGE" },
  { 0x40, 0, "FALLOC_FL_UNSHARE_RANGE" }, { 0x80, 0, "FALLOC_FL_WRITE_ZEROES" },
};
FLAGS_DECODER (decode_falloc_mode, falloc_modes, "0")

static const Flag sync_range_flags[] = {
  { 1, 0, "SYNC_FILE_RANGE_WAIT_BEFORE" }, { 2, 0, "SYNC_FILE_RANGE_WRITE" },
  { 4, 0, "SYNC_FILE_RANGE_WAIT_AFTER" },
};
FLAGS_DECODER (decode_sync_range_flags, sync_range_flags, "0")

static const Flag flock_ops[] = {
  { 1, 0, "LOCK_SH" }, { 2, 0, "LOCK_EX" }, { 4, 0, "LOCK_NB" }, { 8, 0, "LOCK_UN" },
  { 32, 0, "LOCK_MAND" }, { 64, 0, "LOCK_READ" }, { 128, 0, "LOCK_WRITE" },
};
FLAGS_DECODER (decode_flock_op, flock_ops, "0")

static const Flag splice_flags[] = {
  { 1, 0, "SPLICE_F_MOVE" }, { 2, 0, "SPLICE_F_NONBLOCK" }, { 4, 0, "SPLICE_F_MORE" },
  { 8, 0, "SPLICE_F_GIFT" },
};
FLAGS_DECODER (decode_splice_flags, splice_flags, "0")

static const Flag mmap_prot[] = {
  { 0x1, 0, "PROT_READ" }, { 0x2, 0, "PROT_WRITE" }, { 0x4, 0, "PROT_EXEC" },
  { 0x8, 0, "PROT_SEM" }, { 0x01000000, 0, "PROT_GROWSDOWN" }, { 0x02000000, 0, "PROT_GROWSUP" },
};
FLAGS_DECODER (decode_mmap_prot, mmap_prot, "PROT_NONE")

#define K_MAP_TYPE 0x0f

static const Flag mmap_flags[] = {
  { 0x10, 0, "MAP_FIXED" }, { 0x20, 0, "MAP_ANONYMOUS" }, { 0x40, 0, "MAP_32BIT" },
  { 0x100, 0, "MAP_GROWSDOWN" }, { 0x800, 0, "MAP_DENYWRITE" }, { 0x1000, 0, "MAP_EXECUTABLE" },
  { 0x2000, 0, "MAP_LOCKED" }, { 0x4000, 0, "MAP_NORESERVE" }, { 0x8000, 0, "MAP_POPULATE" },
  { 0x10000, 0, "MAP_NONBLOCK" }, { 0x20000, 0, "MAP_STACK" }, { 0x40000, 0, "MAP_HUGETLB" },
  { 0x80000, 0, "MAP_SYNC" }, { 0x100000, 0, "MAP_FIXED_NOREPLACE" },
  { 0x4000000, 0, "MAP_UNINITIALIZED" },
};

/* The mapping type is a number in the low bits, not a flag, and always shown. */
static void
decode_mmap_flags (GString *out,
                   guint64  flags)
{
  static const char *const types[] = { "0", "MAP_SHARED", "MAP_PRIVATE", "MAP_SHARED_VALIDATE" };
  guint64 type = flags & K_MAP_TYPE;
  guint64 rest = flags & ~(guint64) K_MAP_TYPE;

  if (type < G_N_ELEMENTS (types))
    g_string_append (out, types[type]);
  else
    g_string_append_printf (out, "0x%" G_GINT64_MODIFIER "x", type);
  if (rest != 0)
    {
      g_string_append_c (out, '|');
      decode_flags (out, rest, mmap_flags, G_N_ELEMENTS (mmap_flags), "");
    }
}

static const Flag inotify_mask[] = {
  { 0x1, 0, "IN_ACCESS" }, { 0x2, 0, "IN_MODIFY" }, { 0x4, 0, "IN_ATTRIB" },
  { 0x8, 0, "IN_CLOSE_WRITE" }, { 0x10, 0, "IN_CLOSE_NOWRITE" }, { 0x20, 0, "IN_OPEN" },
  { 0x40, 0, "IN_MOVED_FROM" }, { 0x80, 0, "IN_MOVED_TO" }, { 0x100, 0, "IN_CREATE" },
  { 0x200, 0, "IN_DELETE" }, { 0x400, 0, "IN_DELETE_SELF" }, { 0x800, 0, "IN_MOVE_SELF" },
  { 0x2000, 0, "IN_UNMOUNT" }, { 0x4000, 0, "IN_Q_OVERFLOW" }, { 0x8000, 0, "IN_IGNORED" },
  { 0x1000000, 0, "IN_ONLYDIR" }, { 0x2000000, 0, "IN_DONT_FOLLOW" },
  { 0x4000000, 0, "IN_EXCL_UNLINK" }, { 0x10000000, 0, "IN_MASK_CREATE" },
  { 0x20000000, 0, "IN_MASK_ADD" }, { 0x40000000, 0, "IN_ISDIR" }, { 0x80000000, 0, "IN_ONESHOT" },
};
FLAGS_DECODER (decode_inotify_mask, inotify_mask, "0")

#define K_MS_MGC_MSK 0xffff0000u
#define K_MS_MGC_VAL 0xc0ed0000u

static const Flag mount_flags[] = {
  { 0x1, 0, "MS_RDONLY" }, { 0x2, 0, "MS_NOSUID" }, { 0x4, 0, "MS_NODEV" },
  { 0x8, 0, "MS_NOEXEC" }, { 0x10, 0, "MS_SYNCHRONOUS" }, { 0x20, 0, "MS_REMOUNT" },
  { 0x40, 0, "MS_MANDLOCK" }, { 0x80, 0, "MS_DIRSYNC" }, { 0x100, 0, "MS_NOSYMFOLLOW" },
  { 0x400, 0, "MS_NOATIME" }, { 0x800, 0, "MS_NODIRATIME" }, { 0x1000, 0, "MS_BIND" },
  { 0x2000, 0, "MS_MOVE" }, { 0x4000, 0, "MS_REC" }, { 0x8000, 0, "MS_SILENT" },
  { 1 << 16, 0, "MS_POSIXACL" }, { 1 << 17, 0, "MS_UNBINDABLE" }, { 1 << 18, 0, "MS_PRIVATE" },
  { 1 << 19, 0, "MS_SLAVE" }, { 1 << 20, 0, "MS_SHARED" }, { 1 << 21, 0, "MS_RELATIME" },
  { 1 << 22, 0, "MS_KERNMOUNT" }, { 1 << 23, 0, "MS_I_VERSION" }, { 1 << 24, 0, "MS_STRICTATIME" },
  { 1 << 25, 0, "MS_LAZYTIME" },
};

/* The old magic number in the upper half (MS_MGC_VAL) is named as such, not as bits. */
static void
decode_mount_flags (GString *out,
                    guint64  flags)
{
  guint64 rest = flags;

  if ((flags & K_MS_MGC_MSK) == K_MS_MGC_VAL)
    {
      g_string_append (out, "MS_MGC_VAL");
      rest &= ~(guint64) K_MS_MGC_MSK;
      if (rest == 0)
        return;
      g_string_append_c (out, '|');
    }
  decode_flags (out, rest, mount_flags, G_N_ELEMENTS (mount_flags), "0");
}

static const Flag umount_flags[] = {
  { 1, 0, "MNT_FORCE" }, { 2, 0, "MNT_DETACH" }, { 4, 0, "MNT_EXPIRE" }, { 8, 0, "UMOUNT_NOFOLLOW" },
};
FLAGS_DECODER (decode_umount_flags, umount_flags, "0")

static const Flag close_range_flags[] = {
  { 1u << 1, 0, "CLOSE_RANGE_UNSHARE" }, { 1u << 2, 0, "CLOSE_RANGE_CLOEXEC" },
};
FLAGS_DECODER (decode_close_range_flags, close_range_flags, "0")

/* the mark's action (ADD, REMOVE, FLUSH) and its object (INODE 0, MOUNT, FILESYSTEM) */
static const Flag fanotify_mark_flags[] = {
  { 0x1, 0, "FAN_MARK_ADD" }, { 0x2, 0, "FAN_MARK_REMOVE" },
  { 0x4, 0, "FAN_MARK_DONT_FOLLOW" }, { 0x8, 0, "FAN_MARK_ONLYDIR" },
  { 0x10, 0, "FAN_MARK_MOUNT" }, { 0x20, 0, "FAN_MARK_IGNORED_MASK" },
  { 0x40, 0, "FAN_MARK_IGNORED_SURV_MODIFY" }, { 0x80, 0, "FAN_MARK_FLUSH" },
  { 0x100, 0, "FAN_MARK_FILESYSTEM" }, { 0x200, 0, "FAN_MARK_EVICTABLE" },
  { 0x400, 0, "FAN_MARK_IGNORE" }, { 0x1000, 0, "FAN_MARK_MNTNS" },
};
FLAGS_DECODER (decode_fanotify_mark_flags, fanotify_mark_flags, "0")

static const Flag fanotify_mask[] = {
  { 0x1, 0, "FAN_ACCESS" }, { 0x2, 0, "FAN_MODIFY" }, { 0x4, 0, "FAN_ATTRIB" },
  { 0x8, 0, "FAN_CLOSE_WRITE" }, { 0x10, 0, "FAN_CLOSE_NOWRITE" }, { 0x20, 0, "FAN_OPEN" },
  { 0x40, 0, "FAN_MOVED_FROM" }, { 0x80, 0, "FAN_MOVED_TO" }, { 0x100, 0, "FAN_CREATE" },
  { 0x200, 0, "FAN_DELETE" }, { 0x400, 0, "FAN_DELETE_SELF" }, { 0x800, 0, "FAN_MOVE_SELF" },
  { 0x1000, 0, "FAN_OPEN_EXEC" }, { 0x4000, 0, "FAN_Q_OVERFLOW" }, { 0x8000, 0, "FAN_FS_ERROR" },
  { 0x10000, 0, "FAN_OPEN_PERM" }, { 0x20000, 0, "FAN_ACCESS_PERM" },
  { 0x40000, 0, "FAN_OPEN_EXEC_PERM" }, { 0x80000, 0, "FAN_PRE_ACCESS" },
  { 0x1000000, 0, "FAN_MNT_ATTACH" }, { 0x2000000, 0, "FAN_MNT_DETACH" },
  { 0x8000000, 0, "FAN_EVENT_ON_CHILD" }, { 0x10000000, 0, "FAN_RENAME" },
  { 0x40000000, 0, "FAN_ONDIR" },
};
FLAGS_DECODER (decode_fanotify_mask, fanotify_mask, "0")

/* open_tree takes some AT_* bits beside its own */
static const Flag open_tree_flags[] = {
  { 0x1, 0, "OPEN_TREE_CLONE" }, { 0x100, 0, "AT_SYMLINK_NOFOLLOW" },
  { 0x800, 0, "AT_NO_AUTOMOUNT" }, { 0x1000, 0, "AT_EMPTY_PATH" }, { 0x8000, 0, "AT_RECURSIVE" },
  { 02000000, 0, "OPEN_TREE_CLOEXEC" },
};
FLAGS_DECODER (decode_open_tree_flags, open_tree_flags, "0")

static const Flag move_mount_flags[] = {
  { 0x1, 0, "MOVE_MOUNT_F_SYMLINKS" }, { 0x2, 0, "MOVE_MOUNT_F_AUTOMOUNTS" },
  { 0x4, 0, "MOVE_MOUNT_F_EMPTY_PATH" }, { 0x10, 0, "MOVE_MOUNT_T_SYMLINKS" },
  { 0x20, 0, "MOVE_MOUNT_T_AUTOMOUNTS" }, { 0x40, 0, "MOVE_MOUNT_T_EMPTY_PATH" },
  { 0x100, 0, "MOVE_MOUNT_SET_GROUP" }, { 0x200, 0, "MOVE_MOUNT_BENEATH" },
};
FLAGS_DECODER (decode_move_mount_flags, move_mount_flags, "0")

static const Flag fsopen_flags[] = { { 0x1, 0, "FSOPEN_CLOEXEC" } };
FLAGS_DECODER (decode_fsopen_flags, fsopen_flags, "0")

static const Flag fsmount_flags[] = { { 0x1, 0, "FSMOUNT_CLOEXEC" } };
FLAGS_DECODER (decode_fsmount_flags, fsmount_flags, "0")

static const Flag fspick_flags[] = {
  { 0x1, 0, "FSPICK_CLOEXEC" }, { 0x2, 0, "FSPICK_SYMLINK_NOFOLLOW" },
  { 0x4, 0, "FSPICK_NO_AUTOMOUNT" }, { 0x8, 0, "FSPICK_EMPTY_PATH" },
};
FLAGS_DECODER (decode_fspick_flags, fspick_flags, "0")

/* MOUNT_ATTR_RELATIME is 0 in the 3-bit atime field: a field of 0 is not named */
static const Flag mount_attr_flags[] = {
  { 0x1, 0, "MOUNT_ATTR_RDONLY" }, { 0x2, 0, "MOUNT_ATTR_NOSUID" }, { 0x4, 0, "MOUNT_ATTR_NODEV" },
  { 0x8, 0, "MOUNT_ATTR_NOEXEC" }, { 0x10, 0x60, "MOUNT_ATTR_NOATIME" },
  { 0x20, 0x50, "MOUNT_ATTR_STRICTATIME" }, { 0x80, 0, "MOUNT_ATTR_NODIRATIME" },
  { 0x100000, 0, "MOUNT_ATTR_IDMAP" }, { 0x200000, 0, "MOUNT_ATTR_NOSYMFOLLOW" },
};
FLAGS_DECODER (decode_mount_attr_flags, mount_attr_flags, "0")

/* Commands and advice are numbers, not flags: a name each, else the number in hex. */
static void
append_enum (GString           *out,
             guint32            value,
             const char *const *names,
             gsize              n_names)
{
  if (value < n_names && names[value] != NULL)
    g_string_append (out, names[value]);
  else
    g_string_append_printf (out, "0x%x", value);
}

static void
decode_fadvice (GString *out,
                guint64  advice)
{
  static const char *const names[] = {
    "POSIX_FADV_NORMAL", "POSIX_FADV_RANDOM", "POSIX_FADV_SEQUENTIAL", "POSIX_FADV_WILLNEED",
    "POSIX_FADV_DONTNEED", "POSIX_FADV_NOREUSE",
  };

  append_enum (out, (guint32) advice, names, G_N_ELEMENTS (names));
}

static void
decode_fsconfig_cmd (GString *out,
                     guint64  cmd)
{
  static const char *const names[] = {
    "FSCONFIG_SET_FLAG", "FSCONFIG_SET_STRING", "FSCONFIG_SET_BINARY", "FSCONFIG_SET_PATH",
    "FSCONFIG_SET_PATH_EMPTY", "FSCONFIG_SET_FD", "FSCONFIG_CMD_CREATE",
    "FSCONFIG_CMD_RECONFIGURE", "FSCONFIG_CMD_CREATE_EXCL",
  };

  append_enum (out, (guint32) cmd, names, G_N_ELEMENTS (names));
}

static const char *const whence_names[] = {
  "SEEK_SET", "SEEK_CUR", "SEEK_END", "SEEK_DATA", "SEEK_HOLE",
};

/* fcntl commands (<asm-generic/fcntl.h>, <linux/fcntl.h>) and how each reads its argument. */
typedef enum {
  FCNTL_ARG_NONE,      /* a getter: the argument is not read */
  FCNTL_ARG_NUMBER,
  FCNTL_ARG_FD_FLAGS,  /* FD_CLOEXEC */
  FCNTL_ARG_FL_FLAGS,  /* O_* */
  FCNTL_ARG_FLOCK,     /* struct flock * */
  FCNTL_ARG_LEASE,     /* F_RDLCK, F_WRLCK, F_UNLCK */
} FcntlArg;

static const struct { guint32 cmd; const char *name; FcntlArg arg; } fcntl_cmds[] = {
  { 0, "F_DUPFD", FCNTL_ARG_NUMBER }, { 1, "F_GETFD", FCNTL_ARG_NONE },
  { 2, "F_SETFD", FCNTL_ARG_FD_FLAGS }, { 3, "F_GETFL", FCNTL_ARG_NONE },
  { 4, "F_SETFL", FCNTL_ARG_FL_FLAGS }, { 5, "F_GETLK", FCNTL_ARG_FLOCK },
  { 6, "F_SETLK", FCNTL_ARG_FLOCK }, { 7, "F_SETLKW", FCNTL_ARG_FLOCK },
  { 8, "F_SETOWN", FCNTL_ARG_NUMBER }, { 9, "F_GETOWN", FCNTL_ARG_NONE },
  { 10, "F_SETSIG", FCNTL_ARG_NUMBER }, { 11, "F_GETSIG", FCNTL_ARG_NONE },
  { 36, "F_OFD_GETLK", FCNTL_ARG_FLOCK }, { 37, "F_OFD_SETLK", FCNTL_ARG_FLOCK },
  { 38, "F_OFD_SETLKW", FCNTL_ARG_FLOCK }, { 1024, "F_SETLEASE", FCNTL_ARG_LEASE },
  { 1025, "F_GETLEASE", FCNTL_ARG_NONE }, { 1026, "F_NOTIFY", FCNTL_ARG_NUMBER },
  { 1027, "F_DUPFD_QUERY", FCNTL_ARG_NUMBER }, { 1028, "F_CREATED_QUERY", FCNTL_ARG_NONE },
  { 1030, "F_DUPFD_CLOEXEC", FCNTL_ARG_NUMBER }, { 1031, "F_SETPIPE_SZ", FCNTL_ARG_NUMBER },
  { 1032, "F_GETPIPE_SZ", FCNTL_ARG_NONE }, { 1033, "F_ADD_SEALS", FCNTL_ARG_NUMBER },
  { 1034, "F_GET_SEALS", FCNTL_ARG_NONE },
};

static gssize
fcntl_cmd_index (guint32 cmd)
{
  for (gsize i = 0; i < G_N_ELEMENTS (fcntl_cmds); i++)
    if (fcntl_cmds[i].cmd == cmd)
      return (gssize) i;
  return -1;
}

static void
decode_fcntl_cmd (GString *out,
                  guint64  cmd)
{
  gssize i = fcntl_cmd_index ((guint32) cmd);

  if (i >= 0)
    g_string_append (out, fcntl_cmds[i].name);
  else
    g_string_append_printf (out, "0x%x", (guint32) cmd);
}

static const char *const lock_types[] = { "F_RDLCK", "F_WRLCK", "F_UNLCK" };

static void
append_lock_type (GString *out,
                  guint32  type)
{
  if (type < G_N_ELEMENTS (lock_types))
    g_string_append (out, lock_types[type]);
  else
    g_string_append_printf (out, "0x%x", type);
}

static void
append_whence (GString *out,
               guint32  whence)
{
  if (whence < G_N_ELEMENTS (whence_names))
    g_string_append (out, whence_names[whence]);
  else
    g_string_append_printf (out, "0x%x", whence);
}

/* --- detail text ------------------------------------------------------------------------- */

/* The detail being written: fields separated by ", ", the whole of @out kept below
 * FM_DETAIL_MAX. A field that does not fit is replaced by "..." and nothing follows it. */
typedef struct {
  GString *out;
  gsize limit;       /* longest @out may become, in bytes */
  guint n_fields;
  gboolean full;
} Detail;

#define ELLIPSIS "..."
#define ELLIPSIS_LEN (sizeof ELLIPSIS - 1)
#define STOP_LEN (sizeof ", " ELLIPSIS - 1)

static void
detail_stop (Detail *d)
{
  const char *e = d->n_fields > 0 ? ", " ELLIPSIS : ELLIPSIS;

  if (d->out->len + strlen (e) <= d->limit)
    g_string_append (d->out, e);
  d->full = TRUE;
}

/* Starts a field; FALSE when the detail is already full. *mark remembers where it began. */
static gboolean
field_open (Detail *d,
            gsize  *mark)
{
  if (d->full)
    return FALSE;
  *mark = d->out->len;
  if (d->n_fields > 0)
    g_string_append (d->out, ", ");
  return TRUE;
}

static void
field_close (Detail *d,
             gsize   mark)
{
  if (d->full)
    return;
  /* room for a later ", ..." stays free, so a detail cut short always says so */
  if (d->out->len + STOP_LEN <= d->limit)
    {
      d->n_fields++;
      return;
    }
  g_string_truncate (d->out, mark);
  detail_stop (d);
}

static void field_printf (Detail *d, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
field_printf (Detail     *d,
              const char *format,
              ...)
{
  gsize mark;
  va_list ap;

  if (!field_open (d, &mark))
    return;
  va_start (ap, format);
  g_string_append_vprintf (d->out, format, ap);
  va_end (ap);
  field_close (d, mark);
}

typedef void (*Decoder) (GString *out, guint64 value);

static void
field_decoded (Detail  *d,
               Decoder  decode,
               guint64  value)
{
  gsize mark;

  if (!field_open (d, &mark))
    return;
  decode (d->out, value);
  field_close (d, mark);
}

/* Appends @s escaped as valid UTF-8: what fm_escape_next escapes becomes \xNN, except
 * \n and \t; a backslash \\ (and a quote \" when @quoted). Keeps @reserve bytes free
 * below the limit; FALSE when @s did not fit and was cut with "...". */
static gboolean
append_escaped (Detail     *d,
                const char *s,
                gboolean    quoted,
                gsize       reserve)
{
  const char *end = s + strlen (s);

  for (const guchar *p = (const guchar *) s; p < (const guchar *) end;)
    {
      char piece[FM_ESCAPE_HEX_MAX];
      gboolean hex;
      gsize k = fm_escape_next (p, (const guchar *) end - p, &hex);
      gsize n;

      if (*p == '\\' || (quoted && *p == '"'))
        n = g_snprintf (piece, sizeof piece, "\\%c", *p);
      else if (*p == '\n')
        n = g_snprintf (piece, sizeof piece, "\\n");
      else if (*p == '\t')
        n = g_snprintf (piece, sizeof piece, "\\t");
      else if (hex)
        n = fm_escape_hex (piece, p, k);
      else
        {
          memcpy (piece, p, k);
          n = k;
        }
      p += k;
      if (d->out->len + n + reserve > d->limit)
        {
          g_string_append (d->out, ELLIPSIS);
          return FALSE;
        }
      g_string_append_len (d->out, piece, n);
    }
  return TRUE;
}

/* A user string (an xattr name) as valid UTF-8 (append_escaped()), quoted when @quoted.
 * Long strings are cut at a character boundary with "...". */
static void
field_string (Detail     *d,
              const char *s,
              gboolean    quoted)
{
  gsize reserve = ELLIPSIS_LEN + (quoted ? 1 : 0);
  gsize mark;

  if (!field_open (d, &mark))
    return;
  if (quoted)
    g_string_append_c (d->out, '"');
  if (d->out->len + reserve > d->limit)
    {
      /* not even room to say it was cut: the field gives way to the detail's ellipsis */
      g_string_truncate (d->out, mark);
      detail_stop (d);
      return;
    }
  if (!append_escaped (d, s, quoted, reserve))
    {
      if (quoted)
        g_string_append_c (d->out, '"');
      d->n_fields++;
      d->full = TRUE;
      return;
    }
  if (quoted)
    g_string_append_c (d->out, '"');
  field_close (d, mark);
}

/* execve's argv as strace writes it, ["prog", "arg two"]: each argument quoted, so that
 * spaces and quotes inside one are not read as several. @list holds the arguments one
 * after the other, each ended by a NUL, and an empty string after the last. */
static void
field_argv (Detail     *d,
            const char *list)
{
  /* room for the cut argument's closing '"]' and the next ', "' */
  const gsize reserve = ELLIPSIS_LEN + 5;
  gsize mark;

  if (!field_open (d, &mark))
    return;
  if (d->out->len + reserve + 1 > d->limit)
    {
      g_string_truncate (d->out, mark);
      detail_stop (d);
      return;
    }
  g_string_append_c (d->out, '[');
  for (const char *a = list; *a != '\0'; a += strlen (a) + 1)
    {
      if (a != list)
        g_string_append (d->out, ", ");
      g_string_append_c (d->out, '"');
      if (!append_escaped (d, a, TRUE, reserve))
        {
          g_string_append (d->out, "\"]");
          d->n_fields++;
          d->full = TRUE;
          return;
        }
      g_string_append_c (d->out, '"');
    }
  g_string_append_c (d->out, ']');
  field_close (d, mark);
}

/* The three words of a struct the backend copied (fm-syscalls.h): decimal or 0x hex,
 * separated by spaces. FALSE when @text is not that. */
static gboolean
parse_words (const char *text,
             guint64     words[3])
{
  const char *p = text;

  for (guint i = 0; i < 3; i++)
    {
      char *endp = NULL;

      while (*p == ' ')
        p++;
      words[i] = g_ascii_strtoull (p, &endp, 0);
      if (endp == p || (*endp != ' ' && *endp != '\0'))
        return FALSE;
      p = endp;
    }
  return TRUE;
}

/* fcntl's struct flock as strace writes it: its first word holds l_type and l_whence
 * (two shorts), then l_start and l_len. */
static void
field_flock (Detail     *d,
             const char *text)
{
  guint64 w[3];
  gsize mark;

  if (text == NULL || !parse_words (text, w))
    {
      field_printf (d, "lock=?");
      return;
    }
  if (!field_open (d, &mark))
    return;
  g_string_append (d->out, "{l_type=");
  append_lock_type (d->out, (guint16) w[0]);
  g_string_append (d->out, ", l_whence=");
  append_whence (d->out, (guint16) (w[0] >> 16));
  g_string_append_printf (d->out, ", l_start=%" G_GINT64_FORMAT ", l_len=%" G_GINT64_FORMAT "}",
                          (gint64) w[1], (gint64) w[2]);
  field_close (d, mark);
}

static void
field_fcntl_arg (Detail     *d,
                 guint32     cmd,
                 guint64     v,
                 const char *text)
{
  gssize i = fcntl_cmd_index (cmd);

  switch (i >= 0 ? fcntl_cmds[i].arg : FCNTL_ARG_NUMBER)
    {
    case FCNTL_ARG_NONE:
      break;
    case FCNTL_ARG_NUMBER:
      field_printf (d, "%" G_GINT64_FORMAT, (gint64) v);
      break;
    case FCNTL_ARG_FD_FLAGS:
      field_printf (d, "%s", (v & 1) ? "FD_CLOEXEC" : "0");
      break;
    case FCNTL_ARG_FL_FLAGS:
      field_decoded (d, fm_decode_open_flags, (guint32) v);
      break;
    case FCNTL_ARG_FLOCK:
      field_flock (d, text);
      break;
    case FCNTL_ARG_LEASE:
      {
        gsize mark;

        if (!field_open (d, &mark))
          return;
        append_lock_type (d->out, (guint32) v);
        field_close (d, mark);
      }
      break;
    default:
      break;
    }
}

/* openat2's struct open_how: flags, mode, resolve. */
static void
field_open_how (Detail     *d,
                const char *text)
{
  guint64 how[3];

  if (!parse_words (text, how))
    {
      field_printf (d, "how=?");
      return;
    }
  field_decoded (d, fm_decode_open_flags, how[0]);
  if ((how[0] & (K_O_CREAT | K_O___TMPFILE)) != 0)
    field_decoded (d, fm_decode_mode, how[1]);
  if (how[2] != 0)
    field_decoded (d, fm_decode_resolve_flags, how[2]);
}

/* setxattrat's and getxattrat's struct xattr_args: value pointer, then size and flags (two
 * u32 in the second word); the third word read is past its end. */
static void
field_xattr_args (Detail     *d,
                  const char *text)
{
  guint64 w[3];

  if (!parse_words (text, w))
    {
      field_printf (d, "args=?");
      return;
    }
  field_printf (d, "size=%u", (guint32) w[1]);
  if ((w[1] >> 32) != 0)
    field_decoded (d, fm_decode_xattr_flags, w[1] >> 32);
}

/* "label=FLAGS" for a non-zero word of a struct */
static void
field_labelled (Detail     *d,
                const char *label,
                Decoder     decode,
                guint64     value)
{
  gsize mark;

  if (value == 0 || !field_open (d, &mark))
    return;
  g_string_append_printf (d->out, "%s=", label);
  decode (d->out, value);
  field_close (d, mark);
}

/* mount_setattr's struct mount_attr: what it sets, clears and the propagation (MS_*);
 * the words left 0 are the ordinary call and not shown */
static void
field_mount_attr (Detail     *d,
                  const char *text)
{
  guint64 w[3];

  if (!parse_words (text, w))
    {
      field_printf (d, "attr=?");
      return;
    }
  field_labelled (d, "attr_set", decode_mount_attr_flags, w[0]);
  field_labelled (d, "attr_clr", decode_mount_attr_flags, w[1]);
  field_labelled (d, "propagation", decode_mount_flags, w[2]);
}

/* uid_t/gid_t -1 means "leave unchanged": shown as -1, as chown(1) users know it. */
static void
field_id (Detail     *d,
          const char *label,
          guint32     id)
{
  if (id == G_MAXUINT32)
    field_printf (d, "%s=-1", label);
  else
    field_printf (d, "%s=%u", label, id);
}

static gboolean
next_path_is_path2 (const FmSyscall *sc,
                    guint            i)
{
  for (guint j = i + 1; j < sc->n_args; j++)
    if (sc->args[j] == FM_ARG_PATH || sc->args[j] == FM_ARG_PATH2)
      return sc->args[j] == FM_ARG_PATH2;
  return FALSE;
}

#define K_AT_FDCWD (-100)

static Decoder
sparse_decoder (FmArgKind kind)
{
  switch (kind)
    {
    case FM_ARG_RWF_FLAGS: return decode_rwf_flags;
    case FM_ARG_FALLOC_MODE: return decode_falloc_mode;
    case FM_ARG_SYNC_RANGE_FLAGS: return decode_sync_range_flags;
    case FM_ARG_SPLICE_FLAGS: return decode_splice_flags;
    case FM_ARG_MOUNT_FLAGS: return decode_mount_flags;
    case FM_ARG_UMOUNT_FLAGS: return decode_umount_flags;
    case FM_ARG_CLOSE_RANGE_FLAGS: return decode_close_range_flags;
    case FM_ARG_OPEN_TREE_FLAGS: return decode_open_tree_flags;
    case FM_ARG_MOVE_MOUNT_FLAGS: return decode_move_mount_flags;
    case FM_ARG_FSOPEN_FLAGS: return decode_fsopen_flags;
    case FM_ARG_FSMOUNT_FLAGS: return decode_fsmount_flags;
    case FM_ARG_MOUNT_ATTR_FLAGS: return decode_mount_attr_flags;
    case FM_ARG_FSPICK_FLAGS: return decode_fspick_flags;
    default: g_assert_not_reached ();
    }
}

/* Register values are 64-bit, but most of these arguments are int or umode_t: the kernel
 * looks only at the low 32 (or 16) bits, and so do we, or a sign-extended -100 or stray
 * upper bits would decode as something the kernel never saw.
 *
 * A dirfd is shown ("dirfd=3", "dirfd2=4" for the one before path2) only when it is a real
 * descriptor: AT_FDCWD is the default, and the event's path is already resolved against it. */
void
fm_syscall_format_detail (const FmSyscall *sc,
                          const guint64    args[FM_SYSCALL_MAX_ARGS],
                          const char      *strings[FM_SYSCALL_MAX_ARGS],
                          GString         *out)
{
  Detail d = { out, FM_DETAIL_MAX - 1, 0, FALSE };
  gboolean show_mode = TRUE;
  guint32 mode = 0;
  guint32 fcntl_cmd = 0;

  g_return_if_fail (sc != NULL);
  g_return_if_fail (args != NULL);
  g_return_if_fail (out != NULL);

  for (guint i = 0; i < sc->n_args && i < FM_SYSCALL_MAX_ARGS; i++)
    {
      guint64 v = args[i];
      guint32 v32 = (guint32) v;
      const char *str = strings != NULL ? strings[i] : NULL;

      switch (sc->args[i])
        {
        case FM_ARG_FD:
        case FM_ARG_OTHER_FD:
          field_printf (&d, "fd=%d", (gint32) v32);
          break;
        case FM_ARG_FD2:
          field_printf (&d, "fd2=%d", (gint32) v32);
          break;
        case FM_ARG_DIRFD:
          if ((gint32) v32 != K_AT_FDCWD)
            field_printf (&d, "%s=%d", next_path_is_path2 (sc, i) ? "dirfd2" : "dirfd", (gint32) v32);
          break;
        case FM_ARG_OPEN_FLAGS:
          /* the mode argument is garbage unless the call can create a file */
          show_mode = (v32 & (K_O_CREAT | K_O___TMPFILE)) != 0;
          field_decoded (&d, fm_decode_open_flags, v32);
          break;
        case FM_ARG_MODE:
          mode = v32 & 0xffff;
          if (show_mode)
            field_decoded (&d, fm_decode_mode, mode);
          break;
        case FM_ARG_AT_FLAGS:
          if (v32 != 0)
            field_decoded (&d, fm_decode_at_flags, v32);
          break;
        case FM_ARG_ACCESS_AT_FLAGS:
          if (v32 != 0)
            field_decoded (&d, decode_at_flags_eaccess, v32);
          break;
        case FM_ARG_ACCESS_MODE:
          field_decoded (&d, fm_decode_access_mode, v32);
          break;
        case FM_ARG_RENAME_FLAGS:
          if (v32 != 0)
            field_decoded (&d, fm_decode_rename_flags, v32);
          break;
        case FM_ARG_OPEN_HOW:
          if (str != NULL)
            field_open_how (&d, str);
          break;
        case FM_ARG_STATX_MASK:
          field_decoded (&d, fm_decode_statx_mask, v32);
          break;
        case FM_ARG_XATTR_NAME:
          if (str != NULL)
            field_string (&d, str, TRUE);
          break;
        case FM_ARG_XATTR_FLAGS:
          if (v32 != 0)
            field_decoded (&d, fm_decode_xattr_flags, v32);
          break;
        case FM_ARG_UID:
          field_id (&d, "uid", v32);
          break;
        case FM_ARG_GID:
          field_id (&d, "gid", v32);
          break;
        case FM_ARG_SIZE:
          field_printf (&d, "size=%" G_GUINT64_FORMAT, v);
          break;
        case FM_ARG_COUNT:
          field_printf (&d, "count=%" G_GUINT64_FORMAT, v);
          break;
        case FM_ARG_LENGTH:
          field_printf (&d, "length=%" G_GINT64_FORMAT, (gint64) v);
          break;
        case FM_ARG_OFFSET:
          field_printf (&d, "offset=%" G_GINT64_FORMAT, (gint64) v);
          break;
        case FM_ARG_IOVCNT:
          field_printf (&d, "iovcnt=%d", (gint32) v32);
          break;
        case FM_ARG_WATCH:
          field_printf (&d, "wd=%d", (gint32) v32);
          break;
        case FM_ARG_WHENCE:
          {
            gsize mark;

            if (field_open (&d, &mark))
              {
                append_whence (out, v32);
                field_close (&d, mark);
              }
          }
          break;
        case FM_ARG_FLOCK_OP:
          field_decoded (&d, decode_flock_op, v32);
          break;
        case FM_ARG_MMAP_PROT:
          field_decoded (&d, decode_mmap_prot, v32);
          break;
        case FM_ARG_MMAP_FLAGS:
          field_decoded (&d, decode_mmap_flags, v32);
          break;
        case FM_ARG_INOTIFY_MASK:
          field_decoded (&d, decode_inotify_mask, v32);
          break;
        case FM_ARG_FCNTL_CMD:
          fcntl_cmd = v32;
          field_decoded (&d, decode_fcntl_cmd, v32);
          break;
        case FM_ARG_FCNTL_ARG:
          field_fcntl_arg (&d, fcntl_cmd, v, str);
          break;
        case FM_ARG_FSTYPE:
          /* none (NULL) for a bind mount or a remount */
          if (str != NULL && str[0] != '\0')
            field_string (&d, str, TRUE);
          break;
        case FM_ARG_RWF_FLAGS:
        case FM_ARG_FALLOC_MODE:
        case FM_ARG_SYNC_RANGE_FLAGS:
        case FM_ARG_SPLICE_FLAGS:
        case FM_ARG_MOUNT_FLAGS:
        case FM_ARG_UMOUNT_FLAGS:
        case FM_ARG_CLOSE_RANGE_FLAGS:
        case FM_ARG_OPEN_TREE_FLAGS:
        case FM_ARG_MOVE_MOUNT_FLAGS:
        case FM_ARG_FSOPEN_FLAGS:
        case FM_ARG_FSMOUNT_FLAGS:
        case FM_ARG_MOUNT_ATTR_FLAGS:
        case FM_ARG_FSPICK_FLAGS:
          /* flags whose absence is the ordinary call: shown only when set */
          if (v32 != 0)
            field_decoded (&d, sparse_decoder (sc->args[i]), v32);
          break;
        case FM_ARG_DEV:
          /* the device number matters only for device nodes; new_decode_dev() layout */
          if ((mode & 0170000) == 0020000 || (mode & 0170000) == 0060000)
            field_printf (&d, "dev=%u:%u", (v32 & 0xfff00) >> 8, (v32 & 0xff) | ((v32 >> 12) & 0xfff00));
          break;
        case FM_ARG_ARGV:
          if (str != NULL)
            field_argv (&d, str);
          break;
        case FM_ARG_XATTR_ARGS:
          if (str != NULL)
            field_xattr_args (&d, str);
          break;
        case FM_ARG_MOUNT_ATTR:
          if (str != NULL)
            field_mount_attr (&d, str);
          break;
        case FM_ARG_FD_FIRST:
          field_printf (&d, "first=%u", v32);
          break;
        case FM_ARG_FD_LAST:
          field_printf (&d, "last=%u", v32);
          break;
        case FM_ARG_FANOTIFY_MARK_FLAGS:
          field_decoded (&d, decode_fanotify_mark_flags, v32);
          break;
        case FM_ARG_FANOTIFY_MASK:
          field_decoded (&d, decode_fanotify_mask, v);
          break;
        case FM_ARG_FADVICE:
          field_decoded (&d, decode_fadvice, v32);
          break;
        case FM_ARG_FSCONFIG_CMD:
          field_decoded (&d, decode_fsconfig_cmd, v32);
          break;
        case FM_ARG_FSCONFIG_KEY:
          /* none (NULL) for a command; the kernel refuses an empty one */
          if (str != NULL && str[0] != '\0')
            field_string (&d, str, TRUE);
          break;
        case FM_ARG_FSCONFIG_AUX:
          field_printf (&d, "aux=%d", (gint32) v32);
          break;
        case FM_ARG_NONE:
        case FM_ARG_PATH:
        case FM_ARG_PATH2:
        case FM_ARG_SYMLINK_TARGET:
        case FM_ARG_MOUNT_SOURCE:
        case FM_ARG_OFFSET_HIGH:
        case FM_ARG_IGNORED:
        default:
          /* paths are the event's own fields; the rest is not worth showing */
          break;
        }
    }
}
