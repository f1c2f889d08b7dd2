/* SPDX-License-Identifier: MIT */
/*
 * A formatting cursor over a caller's fixed buffer with snprintf()
 * semantics: output is truncated and NUL-terminated, and the length the
 * full text would have is still counted.
 */
#ifndef XRT_CORE_FMTBUF_H
#define XRT_CORE_FMTBUF_H

#include <stddef.h>

struct fmtbuf {
	char *buf;
	size_t size;
	size_t len;	/* length of the full text so far */
};

void fmtbuf_init(struct fmtbuf *f, char *buf, size_t size);
void fmtbuf_printf(struct fmtbuf *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void fmtbuf_puts(struct fmtbuf *f, const char *s);

#endif /* XRT_CORE_FMTBUF_H */
