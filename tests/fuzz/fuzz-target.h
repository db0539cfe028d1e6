/* fuzz-target.h: the libFuzzer entry point every target defines. Built either with
 * -fsanitize=fuzzer (clang, -Dfuzzing=true) or with fuzz-replay.c, which runs the target
 * over its seed corpus and regression cases in the normal test tier. */
#pragma once

#include <glib.h>
#include <stddef.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);
