/* SPDX-License-Identifier: MIT */
/* Values formatted for people, as every result tool shows them. */
#ifndef INVLAB_TOOLS_FORMAT_H
#define INVLAB_TOOLS_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* "12.3us" for a value in ns (rounded), "n/a" for NAN */
const char *il_res_fmt_ns(char *buf, size_t len, double ns);

/* "16 MiB", "1000 bytes": in the largest unit that is exact */
const char *il_res_fmt_size(char *buf, size_t len, uint64_t bytes);

#endif
