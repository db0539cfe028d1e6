/* fm-hook-floor.bpf.c: two programs that do nothing, attached where filemond's are
 * (tp_btf/sys_enter and tp_btf/sys_exit), for fm-hook-floor. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

SEC ("tp_btf/sys_enter")
int
floor_enter (__u64 *ctx __attribute__((unused)))
{
  return 0;
}

SEC ("tp_btf/sys_exit")
int
floor_exit (__u64 *ctx __attribute__((unused)))
{
  return 0;
}
