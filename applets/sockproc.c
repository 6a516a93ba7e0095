// SPDX-License-Identifier: GPL-2.0
/*
 * tcpiter, udpiter: /proc/net/{tcp,udp}{,6}'s text from the records, as
 * the kernel formats it (seq_printf's widths, %pK's hash as the program
 * printed it, rows padded as seq_pad does), with hand-written hex and
 * decimal conversion, written in pieces that stay in the cache.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kit.h"
#include "sockiter.h"

/*
 * The 8 hex digits of v as 8 characters, most significant first in
 * memory: one nibble per byte, then 0-9 to '0'-'9' and 10-15 to 'A'-'F'
 * in all bytes at once (b + 6 carries into bit 4 when b >= 10).
 */
static __u64 hex8(__u32 v)
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
static char *put_hex(char *p, __u64 v, int width)
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
static char *put_dec(char *p, __u64 v, int width)
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

static char *put_sdec(char *p, __s64 v)
{
	if (v < 0) {
		*p++ = '-';
		v = -v;
	}
	return put_dec(p, v, 0);
}

/* "%08X:%04X " or "%08X%08X%08X%08X:%04X " */
static char *put_endpoint(char *p, const __u32 *addr, int family, __u16 port)
{
	int i;

	for (i = 0; i < (family == SOCK_FAMILY_V4 ? 1 : 4); i++)
		p = put_hex_n(p, addr[i], 8);
	*p++ = ':';
	p = put_hex_n(p, port, 4);
	*p++ = ' ';
	return p;
}

/* At most this long: sl, addresses, numbers, pointer, padding. */
#define ROW_MAX 512

static char *format_proc_row(char *p, const struct sockiter_proto *proto,
			     const struct sock_rec *r, const char *ptr,
			     int ptr_len)
{
	char *start = p;

	p = put_dec(p, r->sl, proto->sl_width);
	*p++ = ':';
	*p++ = ' ';
	p = put_endpoint(p, r->src, r->family, r->sport);
	p = put_endpoint(p, r->dst, r->family, r->dport);
	p = put_hex_n(p, r->state, 2);
	*p++ = ' ';
	p = put_hex_n(p, r->tx_queue, 8);
	*p++ = ':';
	p = put_hex_n(p, r->rx_queue, 8);
	*p++ = ' ';
	p = put_hex_n(p, r->timer, 2);
	*p++ = ':';
	p = put_hex(p, r->when, 8);
	*p++ = ' ';
	p = put_hex_n(p, r->retransmits, 8);
	*p++ = ' ';
	p = put_dec(p, r->uid, 5);
	*p++ = ' ';
	p = put_dec(p, r->probes, 8);
	*p++ = ' ';
	p = put_dec(p, r->inode, 0);
	*p++ = ' ';
	p = put_sdec(p, (__s32)r->refcnt);
	*p++ = ' ';
	if (ptr_len > 32)
		ptr_len = 32;
	memcpy(p, ptr, ptr_len);
	p += ptr_len;
	if (!proto->tcp_tail) {
		*p++ = ' ';
		p = put_dec(p, r->drops, 0);
	} else if (r->kind == SOCK_KIND_FULL) {
		*p++ = ' ';
		p = put_dec(p, r->rto, 0);
		*p++ = ' ';
		p = put_dec(p, r->ato, 0);
		*p++ = ' ';
		p = put_dec(p, r->quick_pingpong, 0);
		*p++ = ' ';
		p = put_dec(p, r->cwnd, 0);
		*p++ = ' ';
		p = put_sdec(p, r->ssthresh);
	}
	/* seq_pad(): IPv4 rows are as wide as their header */
	if (r->family == SOCK_FAMILY_V4 && p - start < proto->width4) {
		memset(p, ' ', proto->width4 - (p - start));
		p = start + proto->width4;
	}
	*p++ = '\n';
	return p;
}

/* Rows are formatted here and written in pieces that stay in the cache. */
static char out[256 * 1024];
static size_t out_len;

static void write_out(void)
{
	if (write_all(STDOUT_FILENO, out, out_len) < 0)
		die_errno("write error");
	out_len = 0;
}

/* /proc's header for family, padded like its rows. */
void sockiter_proc_header(const struct sockiter *it, int family)
{
	const struct sockiter_proto *proto = it->proto;
	const char *h = family == SOCK_FAMILY_V4 ? proto->header4 :
						   proto->header6;
	char *start, *p;

	if (sizeof(out) - out_len < ROW_MAX)
		write_out();
	start = p = out + out_len;
	/* Before 5.16 /proc/net/udp's header began with two spaces. */
	if (family == SOCK_FAMILY_V4 && !proto->tcp_tail &&
	    !it->config.udp_header_wide)
		h++;
	p = stpcpy(p, h);
	while (family == SOCK_FAMILY_V4 && p - start < proto->width4)
		*p++ = ' ';
	*p++ = '\n';
	out_len = p - out;
}

void sockiter_proc_row(const struct sockiter *it, const struct sockiter_row *w)
{
	if (sizeof(out) - out_len < ROW_MAX)
		write_out();
	out_len = format_proc_row(out + out_len, it->proto, &w->r, w->ptr,
				  w->ptr_len) - out;
}

/* All that is buffered written out: a walk stops at the first write
 * error. */
void sockiter_flush_out(void)
{
	if (fflush(stdout) || ferror(stdout))
		die_errno("write error");
	if (out_len)
		write_out();
}
