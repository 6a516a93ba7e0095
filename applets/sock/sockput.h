/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The formatter's conversions (sockfmt.c, sockinfo.c): hand-written hex
 * and decimal, and JSON's names and numbers, each writing at p and
 * returning the end.  Inline: they run a dozen times a row.
 */
#ifndef SOCKPUT_H
#define SOCKPUT_H

#include <endian.h>
#include <linux/types.h>
#include <string.h>

/*
 * The 8 hex digits of v as 8 characters, most significant first in
 * memory: one nibble per byte, then 0-9 to '0'-'9' and 10-15 to 'A'-'F'
 * in all bytes at once (b + 6 carries into bit 4 when b >= 10).
 */
static inline __u64 hex8(__u32 v)
{
	__u64 x = v;

	x = (x | x << 16) & 0x0000ffff0000ffffULL;
	x = (x | x << 8) & 0x00ff00ff00ff00ffULL;
	x = (x | x << 4) & 0x0f0f0f0f0f0f0f0fULL;
	x = htobe64(x);
	return x + 0x3030303030303030ULL +
	       7 * ((x + 0x0606060606060606ULL) >> 4 & 0x0101010101010101ULL);
}

/* v as exactly n hex digits, n <= 8 and v < 16^n: %0<n>X */
static inline char *put_hex_n(char *p, __u32 v, int n)
{
	__u64 digits = hex8(v);

	memcpy(p, (char *)&digits + 8 - n, n);
	return p + n;
}

/* %0<width>X, width at most 8 */
static inline char *put_hex(char *p, __u64 v, int width)
{
	int n = v ? (67 - __builtin_clzll(v)) / 4 : 1;

	if (n < width)
		n = width;
	if (n > 8) {
		p = put_hex(p, v >> 32, n - 8);
		return put_hex_n(p, v, 8);
	}
	return put_hex_n(p, v, n);
}

#define DEC_PAIRS(t) t "0" t "1" t "2" t "3" t "4" t "5" t "6" t "7" t "8" t "9"
static const char dec_pairs[] = DEC_PAIRS("0") DEC_PAIRS("1") DEC_PAIRS("2")
	DEC_PAIRS("3") DEC_PAIRS("4") DEC_PAIRS("5") DEC_PAIRS("6")
	DEC_PAIRS("7") DEC_PAIRS("8") DEC_PAIRS("9");	/* "00" to "99" */

/* %<width>u, two digits a division */
static inline char *put_dec(char *p, __u64 v, int width)
{
	char tmp[20], *end = tmp + sizeof(tmp), *d = end;
	int n;

	for (; v >= 100; v /= 100)
		memcpy(d -= 2, dec_pairs + 2 * (v % 100), 2);
	if (v >= 10)
		memcpy(d -= 2, dec_pairs + 2 * v, 2);
	else
		*--d = '0' + v;
	n = end - d;
	if (width > n) {
		memset(p, ' ', width - n);
		p += width - n;
	}
	memcpy(p, d, n);
	return p + n;
}

static inline char *put_sdec(char *p, __s64 v)
{
	if (v < 0) {
		*p++ = '-';
		v = -v;
	}
	return put_dec(p, v, 0);
}

/* ,"NAME": then a number, or a string */
static inline char *put_name(char *p, const char *name)
{
	*p++ = ',';
	*p++ = '"';
	p = stpcpy(p, name);
	*p++ = '"';
	*p++ = ':';
	return p;
}

static inline char *put_number(char *p, const char *name, __u64 v)
{
	return put_dec(put_name(p, name), v, 0);
}

static inline char *put_signed(char *p, const char *name, __s64 v)
{
	return put_sdec(put_name(p, name), v);
}

/* mempcpy() */
static inline char *put_mem(char *p, const void *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

#endif
