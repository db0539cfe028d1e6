/* filemond-bpf-core.h: the few kernel types filemond.bpf.c reads, declared by hand.
 *
 * Not a vmlinux.h: only the fields the program touches are declared, and
 * preserve_access_index makes every access a CO-RE relocation that libbpf resolves against
 * the running kernel's BTF at load time. A field's place in the real struct does not
 * matter: on 6.18 dentry.d_name sits in an anonymous union and file.f_path too, and
 * libbpf still finds them by name. Only names and types have to match the kernel.
 *
 * The syscall tracepoint contexts are not kernel structs but the stable tracefs record
 * layout (see /sys/kernel/tracing/events/syscalls/sys_enter_openat/format), so they are
 * declared without relocation.
 */
#pragma once

struct fmd_sys_enter_ctx {
  unsigned long long common;   /* common_type, flags, preempt_count, pid */
  int nr;                      /* __syscall_nr */
  int pad;
  unsigned long args[6];       /* every sys_enter_* has its arguments here, as longs */
};

struct fmd_sys_exit_ctx {
  unsigned long long common;
  int nr;
  int pad;
  long ret;
};

#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)

struct qstr {
  unsigned int len;            /* in an anonymous struct of an anonymous union on 6.18 */
  const unsigned char *name;
};

struct hlist_bl_node {
  struct hlist_bl_node *next;
  struct hlist_bl_node **pprev;
};

struct super_block {
  unsigned long s_magic;
};

struct inode {
  unsigned long i_ino;
};

struct dentry {
  struct hlist_bl_node d_hash;
  struct dentry *d_parent;
  struct qstr d_name;
  struct inode *d_inode;
  struct super_block *d_sb;
};

struct vfsmount {
  struct dentry *mnt_root;
};

struct mount {
  struct mount *mnt_parent;
  struct dentry *mnt_mountpoint;
  struct vfsmount mnt;
};

struct path {
  struct vfsmount *mnt;
  struct dentry *dentry;
};

struct file {
  struct path f_path;
};

struct fdtable {
  unsigned int max_fds;
  struct file **fd;
};

struct files_struct {
  struct fdtable *fdt;
};

struct fs_struct {
  struct path root;
  struct path pwd;
};

typedef struct {
  int counter;
} atomic_t;

struct signal_struct {
  atomic_t live;
};

struct mm_struct {
  struct file *exe_file;
};

struct task_struct {
  int pid;
  int tgid;
  struct task_struct *real_parent;
  struct mm_struct *mm;
  struct fs_struct *fs;
  struct files_struct *files;
  struct signal_struct *signal;
};

#pragma clang attribute pop
