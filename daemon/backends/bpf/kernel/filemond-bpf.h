/* filemond-bpf.h: what filemond.bpf.c and filemond-backend-bpf.c share: the per-syscall
 * argument map filled from the syscall table, the capture settings, the record the program
 * writes into the ring buffer and the drop reasons. Included by the BPF program (clang
 * -target bpf) and by the daemon, so only fixed-size types from <linux/types.h>.
 */
#pragma once

#include <linux/types.h>

#include "fm-syscall-nr.h"

/* Syscall numbers below this are described in fmd_syscalls[]. */
#define FMD_BPF_MAX_NR FM_SYSCALL_NR_LIMIT

#define FMD_BPF_PATH_MAX 4096     /* a path, its NUL included (PATH_MAX) */
#define FMD_BPF_STR_MAX 256       /* an xattr name (XATTR_NAME_MAX + 1) */
#define FMD_BPF_ARGV_MAX 256      /* execve's first arguments, NUL-separated */
#define FMD_BPF_ARGV_N 8          /* at most this many of them (argv[0] included) */
#define FMD_BPF_WALK_DEPTH 1024   /* path components a walk visits at most */

#define FMD_BPF_NO_ARG 0xff

/* Where a path comes from. */
enum {
  FMD_BPF_SRC_NONE = 0,
  FMD_BPF_SRC_STRING,      /* a user string, relative to a dirfd or the cwd when not absolute */
  FMD_BPF_SRC_VERBATIM,    /* a user string shown as given (a symlink's target) */
  FMD_BPF_SRC_FD,          /* the path an open fd refers to */
};

/* Traits of a syscall (the table's FmSyscallTraits the program acts on). */
#define FMD_BPF_T_MOVES_CWD (1u << 0)   /* a success moves the cwd the path was relative to */
#define FMD_BPF_T_EXEC      (1u << 1)   /* a success replaces the program and its memory */

/* One syscall as the program sees it; argument indexes are 0..5 or FMD_BPF_NO_ARG. */
struct fmd_bpf_syscall {
  __u8 path_src;           /* FMD_BPF_SRC_* of the event's path */
  __u8 path_arg;
  __u8 path_dirfd;         /* the dirfd the path is relative to; NO_ARG = the cwd */
  __u8 path2_src;
  __u8 path2_arg;
  __u8 path2_dirfd;
  __u8 str_arg;            /* a short string for the detail (xattr name, fstype) */
  __u8 argv_arg;           /* execve's argv, read at entry */
  __u8 struct_arg;         /* a struct's first 24 bytes, copied at exit (open_how, flock) */
  __u8 traits;             /* FMD_BPF_T_* */
  __u8 skip_arg;           /* a call whose argument skip_arg has a bit of skip_bits set */
  __u8 pad;
  __u32 skip_bits;         /* ... touches no file and is not captured (anonymous mmap) */
  __u16 exit_nr;           /* the number a successful call exits under (execveat: execve's) */
  __u16 pad2;
};

/* Capture settings, in the program's .data.hot: the daemon writes them through the mmapped
 * map before it sets enabled (and clears enabled first when it stops). */
struct fmd_bpf_settings {
  __u32 enabled;
  __u32 generation;        /* bumped at every start: older in-flight syscalls are dropped */
  __u32 self_tgid;         /* the daemon: never captured */
  __u8 filter_pids;        /* only tgids in the pids map */
  __u8 follow_children;    /* and tgids forked from them after the start */
  __u8 filter_uids;
  __u8 filter_comms;
  __u8 failed_only;
  __u8 n_prefixes;         /* path or path2 below one of prefixes[0, n) */
  __u8 pad[6];
};

/* A path prefix of the capture, canonical ("/a/b"; "/" alone for every path), held
 * without its leading '/': "a/b", "". */
struct fmd_bpf_prefix {
  __u32 len;
  char text[FMD_BPF_PATH_MAX];
};
#define FMD_BPF_MAX_PREFIXES 64

/* Flags of a record. */
#define FMD_BPF_F_PATH_TRUNCATED   (1u << 0)  /* the walk of the base lost its start (too deep) */
#define FMD_BPF_F_PATH_UNREACHABLE (1u << 1)  /* the walk ended at a mount outside the process's root */
#define FMD_BPF_F_PATH_DELETED     (1u << 2)  /* the fd's file is unlinked */
#define FMD_BPF_F_PATH_UNKNOWN     (1u << 3)  /* fd not open, user memory unreadable... */
#define FMD_BPF_F_PATH_RELATIVE    (1u << 4)  /* the string was relative and got a base */
#define FMD_BPF_F_PATH_EMPTY       (1u << 5)  /* the string was "": the base alone */
#define FMD_BPF_F_PATH_DIR_DELETED (1u << 6)  /* the base a relative string got is deleted */
#define FMD_BPF_F_PATH_NULL        (1u << 7)  /* the pointer was NULL: the dirfd's file */
#define FMD_BPF_F_PATH2_TRUNCATED  (1u << 8)
#define FMD_BPF_F_PATH2_UNREACHABLE (1u << 9)
#define FMD_BPF_F_PATH2_UNKNOWN    (1u << 11)
#define FMD_BPF_F_PATH2_RELATIVE   (1u << 12)
#define FMD_BPF_F_STRUCT           (1u << 16) /* words[] holds the struct of struct_arg */
#define FMD_BPF_F_CHROOT           (1u << 17) /* the task's root is a chroot: paths start there */
/* The string was cut at PATH_MAX - 1 bytes (its end is missing; TRUNCATED says a walk
 * lost the start). Outside the low byte, so path2's is this shifted by 8 as well. */
#define FMD_BPF_F_PATH_CUT         (1u << 20)
#define FMD_BPF_F_PATH2_CUT        (1u << 28)

/* One event, as the exit program writes it. The record is followed by path, path2, str and
 * argv one after the other, each with a NUL after it; the *_len fields do not count it. */
struct fmd_bpf_record {
  __u64 ktime_ns;          /* bpf_ktime_get_ns() at syscall exit (CLOCK_MONOTONIC) */
  __u64 duration_ns;
  __s64 result;
  __u64 args[6];
  __u64 words[3];          /* the first words of struct_arg's struct */
  __u64 ino;               /* the fd path's inode, for pipe:[ino] and socket:[ino] */
  __u64 ino2;              /* path2's, when it is an fd's */
  __u32 magic;             /* its super block's s_magic when unreachable, else 0 */
  __u32 magic2;
  __u32 flags;             /* FMD_BPF_F_* */
  __u32 pid;               /* tgid */
  __u32 tid;
  __u32 ppid;
  __u32 uid;               /* real uid */
  __u32 generation;
  __u16 nr;
  __u16 path_len;
  __u16 path2_len;
  __u16 str_len;
  __u16 argv_len;
  __u16 pad;
  char comm[16];
};

/* The most bytes that follow a record. */
#define FMD_BPF_DATA_MAX (2 * FMD_BPF_PATH_MAX + FMD_BPF_STR_MAX + FMD_BPF_ARGV_MAX)

/* Drop reasons, indexes of the per-CPU drops map. */
enum {
  FMD_BPF_DROP_RINGBUF = 0,   /* the ring buffer was full */
  FMD_BPF_DROP_SLOTS,         /* too many threads inside traced syscalls at once */
  FMD_BPF_DROP_N
};

/* Threads that can hold a syscall's entry state at once (map max_entries). */
#define FMD_BPF_MAX_SLOTS 8192
/* Processes the pid filter can hold, followed children included. */
#define FMD_BPF_MAX_PIDS 16384
/* The place of @key in a bitmap of @nbits kept as __u64 words, keys taken modulo @nbits:
 * bit FMD_BPF_BIT (key) of word FMD_BPF_WORD (key, nbits). The program and the daemon both
 * use it, for traced[] and the hints. */
#define FMD_BPF_WORD(key, nbits) (((key) / 64) % ((nbits) / 64))
#define FMD_BPF_BIT(key) (1ULL << ((key) % 64))
/* Bits of the pid and uid filters' one-load pre-checks (pid_hint[], uid_hint[] in the
 * program's .data.hot, set by the daemon and by the fork hook). */
#define FMD_BPF_HINT_BITS 8192
#define FMD_BPF_MAX_UIDS 1024
/* What every syscall of the machine reads before it is known to be captured: settings,
 * the traced syscalls' bits (at entry, and at exit where execveat exits as execve) and
 * the two hint arrays, the program's .data.hot (a map of
 * its own, so page-aligned). One page: on guests that walk the page tables again after
 * every kernel entry, each more page read costs every syscall of the machine a page walk,
 * so the table and the hints share one. */
#define FMD_BPF_HOT_BYTES \
  (sizeof (struct fmd_bpf_settings) + 2 * FMD_BPF_MAX_NR / 8 + 2 * FMD_BPF_HINT_BITS / 8)
_Static_assert (FMD_BPF_HOT_BYTES <= 4096, "the hot data must fit in one page");
#define FMD_BPF_MAX_COMMS 1024
