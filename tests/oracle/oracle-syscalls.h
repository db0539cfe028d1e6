/* oracle-syscalls.h: the parts of the oracle's syscalls workload kept in files of their own. */
#pragma once

/* the calls of newer kernels and the less common ones (oracle-newer-calls.c), in the cwd */
void newer_calls (void);
