/* filemond.bpf.c: the kernel half of the bpf backend.
 *
 * fmd_enter and fmd_exit are attached to the raw_syscalls tracepoints (sys_enter and
 * sys_exit, as BTF tracepoints): two links in all, where one per syscall and
 * direction (sys_enter_openat, ...) would cost ~120 links, each taking the kernel an RCU
 * grace period (serialized) to detach, and would pay the perf bridge's copy of the
 * arguments on every traced call. Every syscall of the machine runs the programs, so an
 * untraced one leaves after two loads. traced[] says which syscalls the capture
 * wants; fmd_syscalls[nr], filled by the daemon from the syscall table, which argument is
 * a path, a dirfd, an fd or a string. Entry keeps the arguments and the event's path in a
 * per-thread slot; exit writes one record with result and duration to the ring buffer.
 *
 * How each path is obtained, and where it can be wrong:
 * - A path argument that is absolute is the string as given (not canonical: "..",
 *   symlinks and "//" are kept).
 * - A relative one gets a base: the dirfd's open file, or the task's cwd for AT_FDCWD or
 *   a syscall without dirfd, walked dentry by dentry up to the task's root (bpf_d_path is
 *   refused to tracepoint programs). The base is canonical (symlinks resolved, renames
 *   seen) while the rest is as given. An empty string (AT_EMPTY_PATH) is the base alone.
 * - An fd argument is the path of its open file, walked the same way.
 * - openat2 with RESOLVE_IN_ROOT resolves every string below its dirfd, "/" included: its
 *   path is the string on the dirfd's path, or the file it opened when it succeeded.
 * - The event's path is resolved at entry (close() frees the file before exit, execve
 *   replaces the memory holding its string, chdir changes the cwd); path2 (rename/link
 *   target, the fd a copy writes to) at exit, when its string, dirfd or fd are still
 *   there. Another thread changing the fd table, the cwd or the string's memory meanwhile
 *   makes the path wrong.
 * - What a syscall's arguments are (fmd_syscalls[nr]) and what it does beyond them (its
 *   traits: moving the cwd, replacing the program) come from the daemon's syscall table;
 *   the program knows no syscall by its number.
 * - A walk stops at the task's root, so a chrooted or containerized process gets paths
 *   as it sees them. A file outside that root (an fd opened before chroot, a lazily
 *   unmounted tree) or on a kernel-internal mount (pipes, sockets, anonymous inodes,
 *   memfd) ends at a mount that has no parent: the record says so and carries the inode
 *   and super block magic, from which the daemon writes "pipe:[123]" as /proc does.
 * - A rename of a parent directory racing with the walk can give a mix of old and new
 *   names (the kernel's own d_path retries under rename_lock; a program cannot).
 * - User memory that is not paged in cannot be read from here (no faults allowed):
 *   the path is then unknown and the record says so.
 */
#include <linux/bpf.h>
#include <linux/openat2.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "filemond-bpf-core.h"
#include "filemond-bpf.h"

#ifndef __TARGET_ARCH_x86
#error "the syscall argument registers and syscall numbers here are x86_64's"
#endif

#define AT_FDCWD (-100)
#define TS_COMPAT 0x0002   /* arch/x86/include/asm/thread_info.h */
#define PATH_MASK (FMD_BPF_PATH_MAX - 1)
/* resolve_path() of a struct file * rather than an fd */
#define SRC_FILE 0x80
/* resolve_path() of the task's cwd alone */
#define SRC_CWD 0x40

/* Kernel pointers are followed with plain loads on BTF-typed pointers (the verifier
 * turns them into fault-safe loads), a third of what bpf_probe_read_kernel costs a path
 * component (bench/README.md, "A captured event's BPF time"). A pointer that arrives as
 * a number (read from an array, or computed) gets its type back with bpf_rdonly_cast
 * (6.2+). 6.1 has no such kfunc, and a weak one cannot stand in (libbpf 1.1 has no
 * bpf_ksym_exists, and 6.1's verifier refuses a call of an unresolved kfunc even as
 * dead code), so the program is also built with FMD_BPF_COMPAT: there such pointers
 * stay numbers and KREAD follows them with bpf_probe_read_kernel. KREAD is for every
 * load whose pointer may have come from TYPED. */
#ifdef FMD_BPF_COMPAT
#define TYPED(type, ptr) ((struct type *) (ptr))
#define KREAD(ptr, field) BPF_CORE_READ ((ptr), field)
#else
extern void *bpf_rdonly_cast (const void *obj, __u32 btf_id) __ksym;
#define TYPED(type, ptr) ((struct type *) bpf_rdonly_cast ((ptr), bpf_core_type_id_kernel (struct type)))
#define KREAD(ptr, field) ((ptr)->field)
#endif

char LICENSE[] SEC("license") = "GPL";

/* Set before load: wake the reader when the backlog reaches this many bytes. */
const volatile __u64 wakeup_bytes = 1 << 20;
/* Set by the record that woke the reader, cleared by the reader after each read: one
 * wake-up per read while the backlog stays at or above wakeup_bytes. */
__u32 reader_woken;

/* The hot page (FMD_BPF_HOT_BYTES): what the gates of fmd_enter and fmd_exit read. */
struct fmd_bpf_settings settings SEC (".data.hot");
/* a bit per syscall number: selected by the current capture */
__u64 traced[FMD_BPF_MAX_NR / 64] SEC (".data.hot");
/* the numbers their successful calls exit under: traced[] and execve for execveat */
__u64 exit_traced[FMD_BPF_MAX_NR / 64] SEC (".data.hot");
/* One bit per pid (uid) modulo FMD_BPF_HINT_BITS, set for every key of the pids (uids)
 * map during a capture and never cleared before the next one: a clear bit excludes a
 * process with one load, at entry and again at exit, where the hash lookups it spares
 * would cost an excluded process about as much as reaching the programs at all. A set bit
 * leaves the answer to the map. */
__u64 pid_hint[FMD_BPF_HINT_BITS / 64] SEC (".data.hot");
__u64 uid_hint[FMD_BPF_HINT_BITS / 64] SEC (".data.hot");

struct fmd_bpf_syscall fmd_syscalls[FMD_BPF_MAX_NR];
/* followed children that did not fit in the pids map */
__u64 pids_full;

/* A thread's syscall between entry and exit. */
struct slot {
  __u64 start_ns;
  __u64 args[6];
  __u64 ino;
  __u32 magic;
  __u32 flags;
  __u32 generation;
  __u16 nr;
  __u16 active;
  __u16 path_len;
  __u16 argv_len;
  __u16 interp_len;
  char path[FMD_BPF_PATH_MAX];
  char interp[FMD_BPF_INTERP_MAX];   /* an exec's interpreter, path2 of its record */
  /* twice the room used, for the verifier: an offset below the limit plus a length below
   * the limit must stay inside */
  char argv[2 * FMD_BPF_ARGV_MAX];
};

/* The record's path and path2 against each prefix of the capture, as the daemon will
 * show the paths (fmd_bpf_path_tidy: their empty and "." components dropped), component
 * by component: one bpf_loop over every byte compared, so that the verifier sees its step
 * once. The comparison's state lives in the per-CPU scratch map, not on the stack: a
 * verifier before 6.7 checks a bpf_loop callback once, with the caller's stack as it was
 * at the call, and prunes the branches that state rules out (6.1 made every comparison
 * spin to the loop's bound). */
struct below {
  __u32 start[2];        /* path is sp->data[0, len[0]), path2 sp->data[start[1], ...) */
  __u32 len[2];
  __u32 k;               /* the prefix compared, prefixes[k] */
  __u32 which;           /* 0: path, 1: path2 */
  __u32 fresh;           /* the comparison of prefix k with path `which` begins */
  __u32 i;               /* the next byte of the path, from its start */
  __u32 j;               /* the next byte of the prefix */
  __u32 comparing;       /* inside a component; else at the start of one */
  __u32 below;
};

/* Per-CPU working memory: the record being built and the walk's buffer. The walk writes
 * the base backwards ending at walk[PATH_MAX], '/' goes at walk[PATH_MAX] and the
 * relative string after it, so base + "/" + string ends up contiguous. */
struct scratch {
  struct fmd_bpf_record rec;
  char data[4 * FMD_BPF_PATH_MAX + 2 * FMD_BPF_STR_MAX];
  char walk[3 * FMD_BPF_PATH_MAX];
  struct below below;    /* paths_wanted()'s comparison */
};

struct {
  __uint (type, BPF_MAP_TYPE_RINGBUF);
  __uint (max_entries, 1 << 24);   /* set by the daemon from RingBufferMB before load */
} events SEC (".maps");

/* Slots are kept while their thread lives (fmd_task_exit deletes them) so that a
 * syscall costs a lookup, not a 4 KiB copy; memory is allocated as threads come. */
struct {
  __uint (type, BPF_MAP_TYPE_HASH);
  __uint (map_flags, BPF_F_NO_PREALLOC);
  __uint (max_entries, FMD_BPF_MAX_SLOTS);
  __type (key, __u32);
  __type (value, struct slot);
} slots SEC (".maps");

struct {
  __uint (type, BPF_MAP_TYPE_ARRAY);
  __uint (max_entries, 1);
  __type (key, __u32);
  __type (value, struct slot);
} slot_template SEC (".maps");

struct {
  __uint (type, BPF_MAP_TYPE_ARRAY);
  __uint (max_entries, 1);          /* set to the number of possible CPUs before load */
  __type (key, __u32);
  __type (value, struct scratch);
} scratch SEC (".maps");

struct {
  __uint (type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint (max_entries, FMD_BPF_DROP_N);
  __type (key, __u32);
  __type (value, __u64);
} drops SEC (".maps");

struct {
  __uint (type, BPF_MAP_TYPE_HASH);
  __uint (max_entries, FMD_BPF_MAX_PIDS);
  __type (key, __u32);
  __type (value, __u8);
} pids SEC (".maps");

struct {
  __uint (type, BPF_MAP_TYPE_HASH);
  __uint (max_entries, FMD_BPF_MAX_UIDS);
  __type (key, __u32);
  __type (value, __u8);
} uids SEC (".maps");

struct {
  __uint (type, BPF_MAP_TYPE_HASH);
  __uint (max_entries, FMD_BPF_MAX_COMMS);
  __type (key, char[16]);
  __type (value, __u8);
} comms SEC (".maps");

struct {
  __uint (type, BPF_MAP_TYPE_ARRAY);
  __uint (max_entries, FMD_BPF_MAX_PREFIXES);
  __type (key, __u32);
  __type (value, struct fmd_bpf_prefix);
} prefixes SEC (".maps");

/* A captured exec between its entry and its exit: the interpreter the kernel took for
 * the file (a #! script's, binfmt_misc's), and what kfree() freed last while the exec
 * failed. */
struct exec_state {
  __u64 freed_ptr[2];
  __u32 freed_len[2];
  __u32 next;
  __u32 interp_len;
  char freed[2][FMD_BPF_INTERP_MAX];
  char interp[FMD_BPF_INTERP_MAX];
};

struct {
  __uint (type, BPF_MAP_TYPE_HASH);
  __uint (map_flags, BPF_F_NO_PREALLOC);
  __uint (max_entries, FMD_BPF_MAX_EXECS);
  __type (key, __u32);
  __type (value, struct exec_state);
} execs SEC (".maps");

struct {
  __uint (type, BPF_MAP_TYPE_ARRAY);
  __uint (max_entries, 1);
  __type (key, __u32);
  __type (value, struct exec_state);
} exec_template SEC (".maps");

/* entries of execs: while 0, fmd_kfree leaves at once */
__s64 execs_in_flight;

static __always_inline void
count_drop (__u32 reason)
{
  __u64 *count = bpf_map_lookup_elem (&drops, &reason);

  if (count != NULL)
    *count += 1;
}

/* --- paths ------------------------------------------------------------------------------ */

struct walk {
  struct dentry *dentry;
  struct vfsmount *vfsmnt;
  struct dentry *root_dentry;
  struct vfsmount *root_vfsmnt;
  char *buf;
  __u32 off;      /* the path walked so far is buf[off, PATH_MAX) */
  __u32 done;
  __u32 flags;
};

/* One step up: a component, or a jump from a mount's root to where it is mounted. */
static long
walk_step (__u32 index __attribute__((unused)), void *data)
{
  struct walk *w = data;
  struct dentry *dentry = w->dentry;
  struct vfsmount *vfsmnt = w->vfsmnt;
  struct dentry *parent;
  const unsigned char *name;
  __u32 len;

  if (dentry == w->root_dentry && vfsmnt == w->root_vfsmnt)
    {
      w->done = 1;
      return 1;
    }

  if (dentry == KREAD (vfsmnt, mnt_root))
    {
      /* struct mount embeds the vfsmount: container_of with the running kernel's offset */
      struct mount *mnt = TYPED (mount, (void *) vfsmnt - bpf_core_field_offset (struct mount, mnt));
      struct mount *up = KREAD (mnt, mnt_parent);

      if (up == mnt)
        {
          /* a namespace's root mount other than the task's root, or an internal mount */
          w->flags |= FMD_BPF_F_PATH_UNREACHABLE;
          w->done = 1;
          return 1;
        }
      w->dentry = KREAD (mnt, mnt_mountpoint);
      w->vfsmnt = &up->mnt;
      return 0;
    }

  parent = KREAD (dentry, d_parent);
  if (parent == NULL)
    {
      w->flags |= FMD_BPF_F_PATH_UNREACHABLE;
      w->done = 1;
      return 1;
    }

  len = KREAD (dentry, d_name.len);
  name = KREAD (dentry, d_name.name);
  if (len > 255)
    len = 255;
  if (w->off < len + 1)
    {
      w->flags |= FMD_BPF_F_PATH_TRUNCATED;
      w->done = 1;
      return 1;
    }
  w->off -= len;
  bpf_probe_read_kernel (w->buf + (w->off & PATH_MASK), len & 255, name);
  w->off -= 1;
  w->buf[w->off & PATH_MASK] = '/';
  if (parent == dentry)
    {
      /* a pseudo file's own dentry (pipe, socket, anonymous inode, memfd): its name is
       * what /proc shows after the file system's prefix ("[eventfd]", "memfd:NAME") */
      w->flags |= FMD_BPF_F_PATH_UNREACHABLE;
      w->done = 1;
      return 1;
    }
  w->dentry = parent;
  return 0;
}

/* Walks from @dentry in @vfsmnt up to the task's root into sp->walk; returns the offset
 * where the path starts (PATH_MAX for the root itself). */
static __always_inline __u32
walk_up (struct scratch      *sp,
         struct task_struct  *task,
         struct dentry       *dentry,
         struct vfsmount     *vfsmnt,
         __u32               *flags)
{
  struct walk w = {
    .dentry = dentry,
    .vfsmnt = vfsmnt,
    .root_dentry = task->fs->root.dentry,
    .root_vfsmnt = task->fs->root.mnt,
    .buf = sp->walk,
    .off = FMD_BPF_PATH_MAX,
  };

  bpf_loop (FMD_BPF_WALK_DEPTH, walk_step, &w, 0);
  if (!w.done)
    w.flags |= FMD_BPF_F_PATH_TRUNCATED;
  *flags |= w.flags;
  return w.off;
}

static __always_inline struct file *
fd_file (struct task_struct *task,
         long                fd)
{
  struct fdtable *fdt = task->files->fdt;
  struct file **array;
  struct file *file = NULL;

  if (fd < 0 || fdt == NULL || fd >= fdt->max_fds)
    return NULL;
  array = fdt->fd;
  bpf_probe_read_kernel (&file, sizeof file, &array[fd]);
  if (file == NULL)
    return NULL;
  return TYPED (file, file);
}

/* What to resolve, and the result: sp->walk[start, start + len), not NUL-terminated. */
struct resolve {
  __u64 value;      /* the user pointer, or the fd */
  __s64 dirfd;      /* AT_FDCWD for the cwd */
  __u64 ino;
  __u32 magic;
  __u32 flags;
  __u32 start;
  __u32 len;
  __u32 src;
  __u32 in_root;    /* an absolute string is below the dirfd too (RESOLVE_IN_ROOT) */
};

/* What the path's walk cannot tell of its start @dentry: a pseudo file's kind (magic and
 * inode, as /proc names them), or that it was deleted (@deleted_flag: the path's own file,
 * or the directory a relative string is resolved in). */
static __always_inline __u32
describe_start (struct resolve *r,
                struct dentry  *dentry,
                __u32           flags,
                __u32           deleted_flag)
{
  struct super_block *sb = KREAD (dentry, d_sb);
  struct inode *inode = KREAD (dentry, d_inode);

  r->magic = KREAD (sb, s_magic);
  r->ino = KREAD (inode, i_ino);
  if (!(flags & FMD_BPF_F_PATH_UNREACHABLE) && KREAD (dentry, d_hash.pprev) == NULL
      && KREAD (dentry, d_parent) != dentry)
    return deleted_flag;
  return 0;
}

/* The path of an open file: an fd of the task, or a struct file * (SRC_FILE). */
static __always_inline void
resolve_file (struct scratch      *sp,
              struct task_struct  *task,
              struct resolve      *r)
{
  struct file *file = r->src == SRC_FILE ? TYPED (file, (void *) r->value)
                                         : fd_file (task, (long) (int) r->value);
  struct dentry *dentry;
  __u32 flags = 0;
  __u32 off;

  r->start = FMD_BPF_PATH_MAX;
  r->len = 0;
  if (file == NULL)
    {
      r->flags = FMD_BPF_F_PATH_UNKNOWN;
      return;
    }
  dentry = KREAD (file, f_path.dentry);
  off = walk_up (sp, task, dentry, KREAD (file, f_path.mnt), &flags);
  flags |= describe_start (r, dentry, flags, FMD_BPF_F_PATH_DELETED);
  if (off >= FMD_BPF_PATH_MAX)
    {
      sp->walk[FMD_BPF_PATH_MAX] = '/';
      r->len = 1;
    }
  else
    {
      r->start = off;
      r->len = FMD_BPF_PATH_MAX - off;
    }
  r->flags = flags;
}

/* A global function: the verifier checks it once, on its own, where a static one is
 * walked again at each of its three call sites with the caller's state, which made
 * loading the exit program most of a cold Start's time. Its pointers
 * are then plain memory that may be NULL, for the verifier. */
__noinline int
resolve_path (struct scratch  *sp,
              struct resolve  *r)
{
  struct task_struct *task = bpf_get_current_task_btf ();
  struct dentry *dentry;
  struct vfsmount *vfsmnt;
  __u32 flags = 0;
  __u32 off;
  long n;
  __u32 rel_len;

  if (sp == NULL || r == NULL)
    return 0;

  if (r->src == FMD_BPF_SRC_FD || r->src == SRC_FILE)
    {
      resolve_file (sp, task, r);
      return 0;
    }

  /* utimensat (fd, NULL, ...) is futimens: the fd's own file */
  if (r->value == 0 && r->dirfd != AT_FDCWD)
    {
      r->src = FMD_BPF_SRC_FD;
      r->value = (__u64) r->dirfd;
      resolve_file (sp, task, r);
      r->flags |= FMD_BPF_F_PATH_NULL;
      return 0;
    }

  /* a NULL text (a remount's source): said so, never read */
  if (r->value == 0 && r->src == FMD_BPF_SRC_VERBATIM)
    {
      r->start = FMD_BPF_PATH_MAX + 1;
      r->len = 0;
      r->flags = FMD_BPF_F_PATH_NULL;
      return 0;
    }

  /* the string, right after where the base would end */
  if (r->src == SRC_CWD)
    {
      sp->walk[FMD_BPF_PATH_MAX + 1] = '\0';
      n = 1;
    }
  else
    /* one byte more than a valid path (PATH_MAX - 1 bytes and its NUL) takes, so that a
     * longer one is seen cut */
    n = bpf_probe_read_user_str (&sp->walk[FMD_BPF_PATH_MAX + 1], FMD_BPF_PATH_MAX + 1,
                                 (const void *) r->value);
  r->start = FMD_BPF_PATH_MAX + 1;
  r->len = 0;
  if (n <= 0)
    {
      r->flags = FMD_BPF_F_PATH_UNKNOWN;
      return 0;
    }
  rel_len = (__u32) n - 1;
  r->len = rel_len;
  if (r->src == FMD_BPF_SRC_VERBATIM
      || (!r->in_root && rel_len > 0 && sp->walk[FMD_BPF_PATH_MAX + 1] == '/'))
    {
      if (rel_len > FMD_BPF_PATH_MAX - 1)
        {
          r->len = FMD_BPF_PATH_MAX - 1;
          r->flags = FMD_BPF_F_PATH_CUT;
        }
      return 0;
    }

  /* relative: walk the base */
  if (r->dirfd == AT_FDCWD)
    {
      dentry = task->fs->pwd.dentry;
      vfsmnt = task->fs->pwd.mnt;
    }
  else
    {
      struct file *file = fd_file (task, r->dirfd);

      if (file == NULL)
        {
          /* a bad dirfd (the call fails with EBADF): the string as given */
          r->flags = FMD_BPF_F_PATH_UNKNOWN;
          return 0;
        }
      dentry = KREAD (file, f_path.dentry);
      vfsmnt = KREAD (file, f_path.mnt);
    }
  off = walk_up (sp, task, dentry, vfsmnt, &flags);
  flags |= FMD_BPF_F_PATH_RELATIVE;
  /* an empty string (AT_EMPTY_PATH) is the base's own file */
  if (rel_len == 0)
    flags |= (r->src == SRC_CWD ? 0 : FMD_BPF_F_PATH_EMPTY)
             | describe_start (r, dentry, flags, FMD_BPF_F_PATH_DELETED);
  else
    flags |= describe_start (r, dentry, flags, FMD_BPF_F_PATH_DIR_DELETED);
  sp->walk[FMD_BPF_PATH_MAX] = '/';
  if (off >= FMD_BPF_PATH_MAX)
    {
      /* the base is the root: "/" + string */
      r->start = FMD_BPF_PATH_MAX;
      r->len = 1 + rel_len;
      if (rel_len == 0)
        r->len = 1;
    }
  else
    {
      r->start = off;
      r->len = FMD_BPF_PATH_MAX - off + (rel_len > 0 ? 1 + rel_len : 0);
    }
  if (rel_len > FMD_BPF_PATH_MAX - 1)
    {
      /* a string the kernel refuses (ENAMETOOLONG) without reading its end */
      r->len = FMD_BPF_PATH_MAX - 1;
      flags |= FMD_BPF_F_PATH_CUT;
    }
  else if (r->len > FMD_BPF_PATH_MAX - 1)
    {
      /* a valid name in a deep directory: its end is what names the file, so the base's
       * start gives way, as when the walk itself runs out of room (fm_path_elide) */
      r->start += r->len - (FMD_BPF_PATH_MAX - 1);
      r->len = FMD_BPF_PATH_MAX - 1;
      flags |= FMD_BPF_F_PATH_TRUNCATED;
    }
  r->flags = flags;
  return 0;
}

/* The process's name: its thread group leader's comm, as ps shows it. The calling thread's
 * own comm is often a worker's name ("gdbus", "pool-0"), which neither a user reading the
 * capture nor a comm= filter means. */
static __always_inline void
process_comm (char comm[16])
{
  bpf_probe_read_kernel_str (comm, 16, bpf_get_current_task_btf ()->group_leader->comm);
}

/* --- filters ---------------------------------------------------------------------------- */

static __always_inline int
is_traced (const __u64 *bits,
           __u32        nr)
{
  return (bits[FMD_BPF_WORD (nr, FMD_BPF_MAX_NR)] & FMD_BPF_BIT (nr)) != 0;
}

static __always_inline int
hinted (const __u64 *hint,
        __u32        key)
{
  return (hint[FMD_BPF_WORD (key, FMD_BPF_HINT_BITS)] & FMD_BPF_BIT (key)) != 0;
}

/* Whether the filters want the current process: all of them when @exact, else only what
 * the hints tell, which is all the exit needs (the entry made no slot for the rest). */
static __always_inline int
wanted (__u32 tgid,
        int   exact)
{
  if (settings.filter_pids
      && (!hinted (pid_hint, tgid) || (exact && bpf_map_lookup_elem (&pids, &tgid) == NULL)))
    return 0;
  if (settings.filter_uids)
    {
      __u32 uid = (__u32) bpf_get_current_uid_gid ();   /* the real uid */

      if (!hinted (uid_hint, uid) || (exact && bpf_map_lookup_elem (&uids, &uid) == NULL))
        return 0;
    }
  if (exact && settings.filter_comms)
    {
      char comm[16] = {};

      process_comm (comm);
      if (bpf_map_lookup_elem (&comms, comm) == NULL)
        return 0;
    }
  return 1;
}

static __always_inline __u64
arg_at (const __u64 *args,
        __u8         index)
{
  /* the index comes from a map: keep it in bounds for the verifier */
  return index < 6 ? args[index & 7] : 0;
}

static __always_inline __s64
dirfd_at (const __u64 *args,
          __u8         index)
{
  return index < 6 ? (__s64) (int) args[index & 7] : AT_FDCWD;
}

#define DATA_MASK (4 * FMD_BPF_PATH_MAX - 1)

/* This comparison failed: on to the next path, or the next prefix. */
static __always_inline long
below_next (struct below *b)
{
  b->fresh = 1;
  if (++b->which < 2)
    return 0;
  b->which = 0;
  b->k++;
  return b->k >= settings.n_prefixes || b->k >= FMD_BPF_MAX_PREFIXES;
}

/* What below_step() is given (bpf_loop takes a pointer to the stack only). */
struct below_ctx {
  struct scratch *sp;
};

static long
below_step (__u32 index __attribute__((unused)), void *data)
{
  struct scratch *sp = ((struct below_ctx *) data)->sp;
  struct below *b = &sp->below;
  __u32 k = b->k;
  const struct fmd_bpf_prefix *prefix = bpf_map_lookup_elem (&prefixes, &k);
  __u32 w = b->which & 1;
  __u32 start = b->start[w], len = b->len[w];
  int at_end;
  char c, p;

  if (prefix == NULL)
    return 1;
  if (b->fresh)
    {
      b->fresh = 0;
      b->i = 1;
      b->j = 0;
      b->comparing = 0;
      if (len == 0 || sp->data[start & DATA_MASK] != '/' || prefix->len >= FMD_BPF_PATH_MAX)
        return below_next (b);
    }
  at_end = b->i >= len;
  c = at_end ? '\0' : sp->data[(start + b->i) & DATA_MASK];

  if (!b->comparing)
    {
      if (!at_end && c == '/')
        {
          b->i++;
          return 0;
        }
      if (!at_end && c == '.'
          && (b->i + 1 >= len || sp->data[(start + b->i + 1) & DATA_MASK] == '/'))
        {
          b->i++;
          return 0;
        }
      if (b->j >= prefix->len)
        {
          b->below = 1;
          return 1;
        }
      if (at_end)
        return below_next (b);
      /* past the '/' between the prefix's components */
      if (b->j > 0)
        b->j++;
      b->comparing = 1;
      return 0;
    }
  p = b->j < prefix->len ? prefix->text[b->j & PATH_MASK] : '/';
  if (p == '/')
    {
      /* the prefix's component ended: so must the path's */
      if (at_end || c == '/')
        {
          b->comparing = 0;
          return 0;
        }
      return below_next (b);
    }
  if (at_end || c != p)
    return below_next (b);
  b->i++;
  b->j++;
  return 0;
}

/* The flags of a path the daemon shows otherwise than as its bytes tidied: a walk cut
 * short ("..."), a deleted file (" (deleted)"), a pseudo file ("pipe:[1]"), a string cut
 * at PATH_MAX, an empty or NULL one. Such an event passes the prefixes: the session
 * compares what it shows. */
#define SHOWN_OTHERWISE \
  (FMD_BPF_F_PATH_TRUNCATED | FMD_BPF_F_PATH_UNREACHABLE | FMD_BPF_F_PATH_DELETED \
   | FMD_BPF_F_PATH_EMPTY | FMD_BPF_F_PATH_NULL | FMD_BPF_F_PATH_CUT \
   | FMD_BPF_F_PATH2_TRUNCATED | FMD_BPF_F_PATH2_UNREACHABLE | FMD_BPF_F_PATH2_CUT)

/* Whether the record's path or path2 (in sp->data) is one of the capture's prefixes or
 * below it. */
static __noinline int
paths_wanted (struct scratch               *sp,
              const struct fmd_bpf_record  *rec)
{
  struct below *b = &sp->below;
  struct below_ctx ctx = { .sp = sp };

  if (rec->flags & SHOWN_OTHERWISE)
    return 1;
  b->start[0] = 0;
  b->start[1] = rec->path_len + 1;
  b->len[0] = rec->path_len;
  b->len[1] = rec->path2_len;
  b->k = 0;
  b->which = 0;
  b->fresh = 1;
  b->below = 0;
  /* each step moves along a path or a prefix, or enters a component, or moves on */
  bpf_loop (FMD_BPF_MAX_PREFIXES * 2 * 3 * FMD_BPF_PATH_MAX, below_step, &ctx, 0);
  return b->below;
}

/* --- entry ------------------------------------------------------------------------------ */

static __always_inline void
read_argv (struct slot *s,
           __u64        argv)
{
  __u32 pos = 0;

#pragma unroll
  for (int i = 0; i < FMD_BPF_ARGV_N; i++)
    {
      const char *arg = NULL;
      __u32 off;
      long n;

      if (pos >= FMD_BPF_ARGV_MAX - 1)
        break;
      if (bpf_probe_read_user (&arg, sizeof arg, (const void *) (argv + i * sizeof arg)) != 0
          || arg == NULL)
        break;
      /* the barrier keeps clang from dropping the mask it knows is a no-op */
      off = pos;
      barrier_var (off);
      off &= FMD_BPF_ARGV_MAX - 1;
      /* at most ARGV_MAX - 1 bytes in all, so that the length fits the record's mask */
      n = bpf_probe_read_user_str (&s->argv[off], FMD_BPF_ARGV_MAX - 1 - off, arg);
      if (n <= 0)
        break;
      pos += n;
    }
  if (pos > FMD_BPF_ARGV_MAX - 1)
    pos = FMD_BPF_ARGV_MAX - 1;
  s->argv_len = pos;
}

/* --- execs ------------------------------------------------------------------------------ */

static __always_inline void
exec_begin (__u32 tid)
{
  __u32 zero = 0;
  struct exec_state *template = bpf_map_lookup_elem (&exec_template, &zero);

  if (template == NULL)
    return;
  if (bpf_map_lookup_elem (&execs, &tid) != NULL)
    bpf_map_update_elem (&execs, &tid, template, BPF_EXIST);
  else if (bpf_map_update_elem (&execs, &tid, template, BPF_NOEXIST) == 0)
    __sync_fetch_and_add (&execs_in_flight, 1);
}

static __always_inline void
exec_forget (__u32 tid)
{
  if (bpf_map_delete_elem (&execs, &tid) == 0)
    __sync_fetch_and_add (&execs_in_flight, -1);
}

static __always_inline void
exec_interp (struct exec_state *e,
             const char        *interp)
{
  long n = bpf_probe_read_kernel_str (e->interp, FMD_BPF_INTERP_MAX, interp);

  e->interp_len = n > 0 ? n - 1 : 0;
}

/* The exec of slot @s ends: its interpreter goes to the slot, its state away. */
static __always_inline void
exec_end (struct slot *s,
          __u32        tid)
{
  struct exec_state *e = bpf_map_lookup_elem (&execs, &tid);

  if (e == NULL)
    return;
  s->interp_len = e->interp_len & (FMD_BPF_INTERP_MAX - 1);
  bpf_probe_read_kernel (s->interp, s->interp_len, e->interp);
  exec_forget (tid);
}

/* A 32-bit syscall of a compat process: its number means another syscall in the table. */
static __always_inline int
is_compat_syscall (void)
{
  return (bpf_get_current_task_btf ()->thread_info.status & TS_COMPAT) != 0;
}

/* The entry of a syscall the capture wants: keeps its arguments and path in the thread's
 * slot. */
static __noinline int
enter_captured (__u64 *ctx,
                __u32  nr,
                __u32  tid)
{
  struct pt_regs *regs = (struct pt_regs *) ctx[0];
  struct fmd_bpf_syscall *sc = &fmd_syscalls[nr & (FMD_BPF_MAX_NR - 1)];
  __u32 zero = 0;
  struct scratch *sp;
  struct slot *s;
  __u64 args[6] = { regs->di, regs->si, regs->dx, regs->r10, regs->r8, regs->r9 };

  /* a call that touches no file (an anonymous mmap) costs no slot and no record */
  if (arg_at (args, sc->skip_arg) & sc->skip_bits)
    return 0;

  s = bpf_map_lookup_elem (&slots, &tid);
  if (s == NULL)
    {
      struct slot *template = bpf_map_lookup_elem (&slot_template, &zero);

      if (template == NULL)
        return 0;
      if (bpf_map_update_elem (&slots, &tid, template, BPF_NOEXIST) != 0
          || (s = bpf_map_lookup_elem (&slots, &tid)) == NULL)
        {
          count_drop (FMD_BPF_DROP_SLOTS);
          return 0;
        }
    }

  s->nr = nr;
  s->generation = settings.generation;
  s->args[0] = args[0];
  s->args[1] = args[1];
  s->args[2] = args[2];
  s->args[3] = args[3];
  s->args[4] = args[4];
  s->args[5] = args[5];
  s->flags = 0;
  s->magic = 0;
  s->ino = 0;
  s->path_len = 0;
  s->argv_len = 0;
  s->interp_len = 0;

  if (sc->path_src != FMD_BPF_SRC_NONE)
    {
      struct resolve r = {
        .src = sc->path_src,
        .value = arg_at (s->args, sc->path_arg),
        .dirfd = dirfd_at (s->args, sc->path_dirfd),
      };
      __u32 cpu = bpf_get_smp_processor_id ();

      sp = bpf_map_lookup_elem (&scratch, &cpu);
      if (sp == NULL)
        return 0;
      resolve_path (sp, &r);
      bpf_probe_read_kernel (s->path, r.len & PATH_MASK,
                             &sp->walk[r.start & (2 * FMD_BPF_PATH_MAX - 1)]);
      s->path_len = r.len & PATH_MASK;
      s->flags = r.flags;
      s->magic = r.magic;
      s->ino = r.ino;
    }

  if (sc->argv_arg < 6)
    read_argv (s, arg_at (s->args, sc->argv_arg));
  if (sc->traits & FMD_BPF_T_EXEC)
    exec_begin (tid);

  s->active = 1;
  /* last, so that the time spent above is not counted in the duration */
  s->start_ns = bpf_ktime_get_ns ();
  return 0;
}

/* Every syscall of the machine comes here and to fmd_exit: the untraced ones leave after
 * two loads, a process the filters exclude after a few more, all of it read from the hot
 * page. The work is a separate function, so that what they run up to the return it jumps
 * to is a few cache lines, not the first and the last page of a large program: these
 * guests (PTI without PCID) walk the page tables again after every kernel entry
 * (bench/README.md, "A captured event's BPF time"). */
SEC ("tp_btf/sys_enter")
int
fmd_enter (__u64 *ctx)
{
  __u32 nr = (__u32) ctx[1];
  __u64 id;
  __u32 tgid;

  if (!settings.enabled || nr >= FMD_BPF_MAX_NR || !is_traced (traced, nr))
    return 0;
  id = bpf_get_current_pid_tgid ();
  tgid = id >> 32;
  if (tgid == settings.self_tgid || !wanted (tgid, 1) || is_compat_syscall ())
    return 0;
  return enter_captured (ctx, nr, (__u32) id);
}

/* --- exit ------------------------------------------------------------------------------- */

static __always_inline __u32
append (struct scratch *sp,
        __u32           pos,
        const void     *src,
        __u32           len)
{
  /* pos stays below 3 * PATH_MAX + 2 * STR_MAX, len below PATH_MAX: masks for the verifier */
  pos &= 4 * FMD_BPF_PATH_MAX - 1;
  if (len > 0)
    bpf_probe_read_kernel (&sp->data[pos], len & PATH_MASK, src);
  sp->data[(pos + len) & (4 * FMD_BPF_PATH_MAX - 1)] = '\0';
  return pos + len + 1;
}

/* Whether the open_how at @how asks for RESOLVE_IN_ROOT. Read at exit, where the kernel
 * has copied the struct (so its page is there); the path kept at entry was the string. */
static __always_inline int
resolves_in_root (__u64 how)
{
  const struct open_how *user = (const struct open_how *) how;
  __u64 resolve = 0;

  if (user == NULL || bpf_probe_read_user (&resolve, sizeof resolve, &user->resolve) != 0)
    return 0;
  return (resolve & RESOLVE_IN_ROOT) != 0;
}

/* The exit of a syscall whose entry was kept: one record to the ring buffer. A capture
 * that stopped or changed its set in between leaves its slot active, which the next
 * entry overwrites and the generation check refuses. */
static __noinline int
exit_captured (__u64 *ctx,
               __u32  nr,
               __u64  id)
{
  long ret = (long) ctx[1];
  __u32 tid = (__u32) id;
  struct fmd_bpf_syscall *sc;
  struct fmd_bpf_record *rec;
  struct task_struct *task;
  struct scratch *sp;
  struct slot *s;
  __u64 now, size, avail, flags;
  __u32 cpu, pos = 0;
  int in_root;

  s = bpf_map_lookup_elem (&slots, &tid);
  if (s == NULL || !s->active)
    return 0;
  s->active = 0;
  sc = &fmd_syscalls[s->nr & (FMD_BPF_MAX_NR - 1)];
  if (sc->traits & FMD_BPF_T_EXEC)
    exec_end (s, tid);
  /* a successful execveat returns as an execve (the new program's registers) */
  if (s->generation != settings.generation || (s->nr != nr && sc->exit_nr != nr))
    return 0;
  if (settings.failed_only && ret >= 0)
    return 0;

  now = bpf_ktime_get_ns ();
  cpu = bpf_get_smp_processor_id ();
  sp = bpf_map_lookup_elem (&scratch, &cpu);
  if (sp == NULL)
    return 0;
  task = bpf_get_current_task_btf ();

  rec = &sp->rec;
  rec->ktime_ns = now;
  rec->duration_ns = now - s->start_ns;
  rec->result = ret;
  rec->args[0] = s->args[0];
  rec->args[1] = s->args[1];
  rec->args[2] = s->args[2];
  rec->args[3] = s->args[3];
  rec->args[4] = s->args[4];
  rec->args[5] = s->args[5];
  rec->ino = s->ino;
  rec->magic = s->magic;
  rec->ino2 = 0;
  rec->magic2 = 0;
  rec->flags = s->flags;
  /* a walk stops at the task's root: in a chroot, paths are the chroot's */
  if (task->fs->root.dentry != task->fs->root.mnt->mnt_root)
    rec->flags |= FMD_BPF_F_CHROOT;
  rec->pid = id >> 32;
  rec->tid = tid;
  rec->ppid = task->real_parent->tgid;
  rec->uid = (__u32) bpf_get_current_uid_gid ();
  rec->generation = s->generation;
  rec->nr = s->nr;
  process_comm (rec->comm);

  in_root = (sc->traits & FMD_BPF_T_OPEN_HOW) && resolves_in_root (arg_at (s->args, sc->struct_arg));
  if (((s->flags & FMD_BPF_F_PATH_UNKNOWN) || in_root) && sc->path_src == FMD_BPF_SRC_STRING)
    {
      /* The string could not be read at entry: its page was not there yet and a program
       * cannot fault it in. The syscall has faulted it in since, so read it again, against
       * the cwd and dirfd as they are now. Except after a successful execve, whose old
       * memory is gone: the path is then the new program's file, canonical. */
      struct resolve r = {
        .src = FMD_BPF_SRC_STRING,
        .value = arg_at (s->args, sc->path_arg),
        .dirfd = dirfd_at (s->args, sc->path_dirfd),
      };

      if ((sc->traits & FMD_BPF_T_EXEC) && ret == 0)
        {
          r.src = SRC_FILE;
          r.value = (__u64) task->mm->exe_file;
        }
      /* a successful chdir has moved the cwd the string was relative to: it is the path */
      if ((sc->traits & FMD_BPF_T_MOVES_CWD) && ret == 0)
        r.src = SRC_CWD;
      /* RESOLVE_IN_ROOT: the string, absolute or not, names a file below the dirfd (or
       * the cwd), "/etc/shadow" there being dirfd/etc/shadow. A success names the file
       * it opened, whose path is exact where ".." or a symlink in the string would be
       * read as leaving that root; a failure is the string below the root. */
      if (in_root && ret >= 0)
        {
          r.src = FMD_BPF_SRC_FD;
          r.value = (__u64) ret;
        }
      r.in_root = in_root;
      resolve_path (sp, &r);
      rec->flags = r.flags | (rec->flags & FMD_BPF_F_CHROOT);
      rec->magic = r.magic;
      rec->ino = r.ino;
      rec->path_len = r.len & PATH_MASK;
      pos = append (sp, pos, &sp->walk[r.start & (2 * FMD_BPF_PATH_MAX - 1)], rec->path_len);
    }
  else
    {
      rec->path_len = s->path_len & PATH_MASK;
      pos = append (sp, pos, s->path, rec->path_len);
    }

  rec->path2_len = 0;
  if (sc->path2_src != FMD_BPF_SRC_NONE)
    {
      struct resolve r = {
        .src = sc->path2_src,
        .value = arg_at (s->args, sc->path2_arg),
        .dirfd = dirfd_at (s->args, sc->path2_dirfd),
      };

      resolve_path (sp, &r);
      rec->path2_len = r.len & PATH_MASK;
      rec->flags |= r.flags << 8;
      rec->magic2 = r.magic;
      rec->ino2 = r.ino;
      pos = append (sp, pos, &sp->walk[r.start & (2 * FMD_BPF_PATH_MAX - 1)], rec->path2_len);
    }
  else if (s->interp_len > 0)
    {
      /* an exec's interpreter, as the #! line (or binfmt_misc) names it */
      rec->path2_len = s->interp_len & (FMD_BPF_INTERP_MAX - 1);
      pos = append (sp, pos, s->interp, rec->path2_len);
    }
  else
    pos = append (sp, pos, "", 0);

  if (settings.n_prefixes > 0 && !paths_wanted (sp, rec))
    return 0;

  rec->str_len = 0;
  if (sc->str_arg < 6)
    {
      long n = bpf_probe_read_user_str (&sp->data[pos & (4 * FMD_BPF_PATH_MAX - 1)],
                                        FMD_BPF_STR_MAX,
                                        (const void *) arg_at (s->args, sc->str_arg));
      if (n > 0)
        {
          rec->str_len = n - 1;
          pos += n;
        }
    }
  if (rec->str_len == 0)
    pos = append (sp, pos, "", 0);

  if (sc->argv_arg < 6 && ret == 0 && s->argv_len == 0)
    {
      /* argv could not be read at entry (its page was not there yet): after a successful
       * exec the kernel has copied it onto the new program's stack, just written */
      struct mm_struct *mm = task->mm;
      __u64 n = mm->arg_end - mm->arg_start;

      if (n > FMD_BPF_ARGV_MAX - 1)
        n = FMD_BPF_ARGV_MAX - 1;
      if (bpf_probe_read_user (s->argv, n & (FMD_BPF_ARGV_MAX - 1), (const void *) mm->arg_start) == 0)
        s->argv_len = n;
    }
  rec->argv_len = s->argv_len & (FMD_BPF_ARGV_MAX - 1);
  pos = append (sp, pos, s->argv, rec->argv_len);

  if (sc->struct_arg < 6
      && bpf_probe_read_user (rec->words, sizeof rec->words,
                              (const void *) arg_at (s->args, sc->struct_arg)) == 0)
    rec->flags |= FMD_BPF_F_STRUCT;

  size = sizeof *rec + (pos & (4 * FMD_BPF_PATH_MAX - 1));
  if (size > sizeof (struct scratch))
    size = sizeof (struct scratch);

  /* Wake the reader when the backlog reaches the threshold, once per read of the reader
   * (waking on every record while it lags would cost a wake-up each; the reader's timer
   * picks up what stays below). A wake-up only on the record that crosses the threshold
   * was lost when two CPUs crossed it together, each measuring the backlog before the
   * other's record: the backlog then stayed above, no record crossed again, and the
   * reader was left to its timer while the ring filled and dropped. Two CPUs that both
   * see the flag clear both wake it, which is harmless. */
  avail = bpf_ringbuf_query (&events, BPF_RB_AVAIL_DATA);
  flags = BPF_RB_NO_WAKEUP;
  if (avail + size >= wakeup_bytes && !reader_woken)
    {
      reader_woken = 1;
      flags = BPF_RB_FORCE_WAKEUP;
    }
  if (bpf_ringbuf_output (&events, rec, size, flags) != 0)
    count_drop (FMD_BPF_DROP_RINGBUF);
  return 0;
}

/* As fmd_enter: the untraced syscalls of the machine and the processes the filters' hints
 * exclude leave here at once. */
SEC ("tp_btf/sys_exit")
int
fmd_exit (__u64 *ctx)
{
  struct pt_regs *regs = (struct pt_regs *) ctx[0];
  __u32 nr = (__u32) regs->orig_ax;
  __u64 id;

  if (!settings.enabled || nr >= FMD_BPF_MAX_NR || !is_traced (exit_traced, nr))
    return 0;
  id = bpf_get_current_pid_tgid ();
  if (!wanted (id >> 32, 0))
    return 0;
  return exit_captured (ctx, nr, id);
}

/* --- processes -------------------------------------------------------------------------- */

/* Runs in the parent before the child first runs, so the child's first syscall is seen. */
SEC ("raw_tp/sched_process_fork")
int
fmd_fork (struct bpf_raw_tracepoint_args *ctx)
{
  struct task_struct *parent = (struct task_struct *) ctx->args[0];
  struct task_struct *child = (struct task_struct *) ctx->args[1];
  __u32 parent_tgid, child_tgid;
  __u8 one = 1;

  if (!settings.enabled || !settings.filter_pids || !settings.follow_children)
    return 0;
  parent_tgid = BPF_CORE_READ (parent, tgid);
  child_tgid = BPF_CORE_READ (child, tgid);
  if (parent_tgid == child_tgid || bpf_map_lookup_elem (&pids, &parent_tgid) == NULL)
    return 0;
  if (bpf_map_update_elem (&pids, &child_tgid, &one, BPF_ANY) != 0)
    {
      __sync_fetch_and_add (&pids_full, 1);
      return 0;
    }
  /* set after the map entry: a set bit only sends the lookup to the map */
  __sync_fetch_and_or (&pid_hint[FMD_BPF_WORD (child_tgid, FMD_BPF_HINT_BITS)],
                        FMD_BPF_BIT (child_tgid));
  return 0;
}

/* A successful exec, before it returns: bprm names the interpreter that runs the file.
 * From a thread other than the leader, the thread takes the leader's pid before the
 * syscall returns, so its slot and exec state move with it, or the exit would not find
 * them. */
SEC ("raw_tp/sched_process_exec")
int
fmd_exec (struct bpf_raw_tracepoint_args *ctx)
{
  struct task_struct *task = (struct task_struct *) ctx->args[0];
  __u32 old_tid = (__u32) ctx->args[1];
  struct linux_binprm *bprm = (struct linux_binprm *) ctx->args[2];
  __u32 tid = BPF_CORE_READ (task, pid);
  const char *interp;
  struct exec_state *e;
  struct slot *s;

  if (!settings.enabled)
    return 0;
  if (old_tid != tid)
    {
      s = bpf_map_lookup_elem (&slots, &old_tid);
      if (s == NULL || !s->active)
        return 0;
      if (bpf_map_update_elem (&slots, &tid, s, BPF_ANY) != 0)
        count_drop (FMD_BPF_DROP_SLOTS);
      bpf_map_delete_elem (&slots, &old_tid);
      e = bpf_map_lookup_elem (&execs, &old_tid);
      if (e != NULL && bpf_map_update_elem (&execs, &tid, e, BPF_NOEXIST) == 0)
        __sync_fetch_and_add (&execs_in_flight, 1);
      exec_forget (old_tid);
    }
  e = bpf_map_lookup_elem (&execs, &tid);
  interp = BPF_CORE_READ (bprm, interp);
  if (e != NULL && interp != BPF_CORE_READ (bprm, filename))
    exec_interp (e, interp);
  return 0;
}

/* A failed exec's interpreter is not seen by fmd_exec: it is in bprm, which the kernel
 * frees with kfree() before the syscall returns (free_bprm: bprm->interp, then
 * bprm->fdpath, then bprm). kfree()'s tracepoint shows each object still whole: the
 * last two freed are kept, and the one bprm->interp points to is the interpreter. No
 * other hook is left on such kernels: no kprobes (CONFIG_KPROBES off) and trampolines
 * (fexit) refused. A kernel that frees bprm otherwise leaves the failed exec without
 * interpreter, never with a wrong one: the pointer must match. A raw tracepoint, not
 * tp_btf: kfree's object is a void pointer, which the verifier of 6.1 and 6.12 refuses
 * to let a typed program read ("arg1 type UNKNOWN is not a struct"). */
SEC ("raw_tp/kfree")
int
fmd_kfree (struct bpf_raw_tracepoint_args *ctx)
{
  const void *ptr = (const void *) ctx->args[1];
  struct linux_binprm *bprm = (struct linux_binprm *) ptr;
  struct exec_state *e;
  const char *interp;
  __u32 tid, k;
  long n;

  if (execs_in_flight <= 0 || ptr == NULL)
    return 0;
  tid = (__u32) bpf_get_current_pid_tgid ();
  e = bpf_map_lookup_elem (&execs, &tid);
  if (e == NULL)
    return 0;
  interp = BPF_CORE_READ (bprm, interp);
  if (interp != NULL && interp != BPF_CORE_READ (bprm, filename))
    {
#pragma unroll
      for (k = 0; k < 2; k++)
        if (e->freed_ptr[k] == (__u64) interp)
          {
            e->interp_len = e->freed_len[k] & (FMD_BPF_INTERP_MAX - 1);
            __builtin_memcpy (e->interp, e->freed[k], FMD_BPF_INTERP_MAX);
            return 0;
          }
    }
  k = e->next++ & 1;
  e->freed_ptr[k] = (__u64) ptr;
  n = bpf_probe_read_kernel_str (e->freed[k], FMD_BPF_INTERP_MAX, ptr);
  e->freed_len[k] = n > 0 ? n - 1 : 0;
  return 0;
}

/* Every thread exit: free its slot, and forget a followed process whose last thread goes
 * (signal->live is already 0 then), so that a reused pid is not captured. Not on the
 * leader's exit: the leader can exit before the other threads. */
SEC ("raw_tp/sched_process_exit")
int
fmd_task_exit (struct bpf_raw_tracepoint_args *ctx)
{
  struct task_struct *task = (struct task_struct *) ctx->args[0];
  __u64 id = bpf_get_current_pid_tgid ();
  __u32 tid = (__u32) id;
  __u32 tgid = id >> 32;

  bpf_map_delete_elem (&slots, &tid);
  exec_forget (tid);
  if (settings.filter_pids && BPF_CORE_READ (task, signal, live.counter) == 0)
    bpf_map_delete_elem (&pids, &tgid);
  return 0;
}
