/* filemond-bpf-core.h: the few kernel types filemond.bpf.c reads, declared by hand.
 *
 * Not a vmlinux.h: only the fields the program touches are declared, and
 * preserve_access_index makes every access a CO-RE relocation that libbpf resolves against
 * the running kernel's BTF at load time. A field's place in the real struct does not
 * matter: on 6.18 dentry.d_name sits in an anonymous union and file.f_path too, and
 * libbpf still finds them by name. Only names and types have to match the kernel.
 */
#pragma once

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
  unsigned long arg_start;     /* the new program's argv strings, NUL-separated */
  unsigned long arg_end;
};

/* the registers a syscall was entered with (x86_64: arguments in di, si, dx, r10, r8, r9) */
struct pt_regs {
  unsigned long r10;
  unsigned long r9;
  unsigned long r8;
  unsigned long dx;
  unsigned long si;
  unsigned long di;
  unsigned long orig_ax;
};

struct thread_info {
  unsigned int status;         /* TS_COMPAT: the current syscall is a 32-bit one */
};

struct task_struct {
  struct thread_info thread_info;
  int pid;
  int tgid;
  struct task_struct *real_parent;
  struct task_struct *group_leader;
  struct mm_struct *mm;
  struct fs_struct *fs;
  struct files_struct *files;
  struct signal_struct *signal;
  char comm[16];   /* TASK_COMM_LEN */
};

/* an exec in progress (include/linux/binfmts.h): interp differs from filename once a
 * binfmt (#! scripts, binfmt_misc) handed the file to an interpreter */
struct linux_binprm {
  const char *filename;
  const char *interp;
};

#pragma clang attribute pop
