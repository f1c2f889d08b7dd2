// SPDX-License-Identifier: MIT
/*
 * Formatting into a fixed buffer with snprintf() semantics.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/fmtbuf.h"

void fmtbuf_init(struct fmtbuf *f, char *buf, size_t size)
{
	f->buf = buf;
	f->size = buf ? size : 0;
	f->len = 0;
	if (f->size)
		buf[0] = '\0';
}

void fmtbuf_printf(struct fmtbuf *f, const char *fmt, ...)
{
	size_t room = f->len < f->size ? f->size - f->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? f->buf + f->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		f->len += (size_t)n;
}

void fmtbuf_puts(struct fmtbuf *f, const char *s)
{
	size_t n = strlen(s);

	if (f->len < f->size) {
		size_t room = f->size - f->len - 1;
		size_t k = n < room ? n : room;

		memcpy(f->buf + f->len, s, k);
		f->buf[f->len + k] = '\0';
	}
	f->len += n;
}
