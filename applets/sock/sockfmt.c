// SPDX-License-Identifier: GPL-2.0
/*
 * tcpiter, udpiter: the text of rows in each form.  /proc/net/{tcp,udp}
 * {,6}'s as the kernel formats it (seq_printf's widths, %pK's hash as the
 * program printed it, rows padded as seq_pad does), ss's table, and JSON.
 * Hand-written hex and decimal conversion, into a buffer written out in
 * pieces that stay in the cache: printf took longer than the kernel's walk.
 * And what the text needs to know of the kernel: HZ for the timers, and
 * the width of /proc/net/udp's header.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include "core/kit.h"
#include "sock/sockiter.h"

/* States by ss's names, and as ss's State column shows them. */
const struct sock_state_names sock_states[SOCK_TCP_STATES] = {
	[SOCK_ST_ESTABLISHED] = { "established", "ESTAB" },
	[SOCK_ST_SYN_SENT] = { "syn-sent", "SYN-SENT" },
	[SOCK_ST_SYN_RECV] = { "syn-recv", "SYN-RECV" },
	[SOCK_ST_FIN_WAIT1] = { "fin-wait-1", "FIN-WAIT-1" },
	[SOCK_ST_FIN_WAIT2] = { "fin-wait-2", "FIN-WAIT-2" },
	[SOCK_ST_TIME_WAIT] = { "time-wait", "TIME-WAIT" },
	[SOCK_ST_CLOSE] = { "close", "UNCONN" },
	[SOCK_ST_CLOSE_WAIT] = { "close-wait", "CLOSE-WAIT" },
	[SOCK_ST_LAST_ACK] = { "last-ack", "LAST-ACK" },
	[SOCK_ST_LISTEN] = { "listen", "LISTEN" },
	[SOCK_ST_CLOSING] = { "closing", "CLOSING" },
};

static const char *const kind_names[SOCK_KINDS] = {
	[SOCK_KIND_FULL] = "socket", [SOCK_KIND_TIMEWAIT] = "timewait",
	[SOCK_KIND_REQUEST] = "request",
};

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

/* Room for n more bytes in out. */
static char *reserve(size_t n)
{
	if (sizeof(out) - out_len < n)
		write_out();
	return out + out_len;
}

/* /proc's header for family, padded like its rows. */
void sockiter_proc_header(const struct sockiter *it, int family)
{
	const struct sockiter_proto *proto = it->proto;
	const char *h = family == SOCK_FAMILY_V4 ? proto->header4 :
						   proto->header6;
	char *start = reserve(ROW_MAX), *p = start;

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

static char *pad_to(char *p, const char *start, int width)
{
	while (p - start < width)
		*p++ = ' ';
	return p;
}

/* a.b.c.d, or IPv6 as inet_ntop() writes it */
static char *put_addr(char *p, const __u32 *addr, int family)
{
	const unsigned char *b = (const void *)addr;
	int i;

	if (family == SOCK_FAMILY_V6)
		return p + strlen(inet_ntop(AF_INET6, addr, p,
					    INET6_ADDRSTRLEN));
	for (i = 0; i < 4; i++) {
		p = put_dec(p, b[i], 0);
		*p++ = '.';
	}
	return p - 1;
}

void sockiter_table_header(const struct sockiter *it)
{
	char *p = reserve(ROW_MAX);

	out_len += sprintf(p, "%-11s %6s %6s %-27s %-27s %6s %s%s\n", "State",
			   "Recv-Q", "Send-Q", " Local Address:Port",
			   " Peer Address:Port", "Uid", "Inode",
			   it->owners ? " Process" : "");
}

/* " %-27s" of ADDR:PORT, [ADDR]:PORT for IPv6; port 0 as * where star */
static char *put_table_endpoint(char *p, const __u32 *addr, int family,
				__u16 port, bool star)
{
	char *start = ++p;

	p[-1] = ' ';
	if (family == SOCK_FAMILY_V6)
		*p++ = '[';
	p = put_addr(p, addr, family);
	if (family == SOCK_FAMILY_V6)
		*p++ = ']';
	*p++ = ':';
	if (star && !port)
		*p++ = '*';
	else
		p = put_dec(p, port, 0);
	return pad_to(p, start, 27);
}

/* ss's columns: Recv-Q, and a listener's backlog as Send-Q */
static char *format_table_row(char *p, const struct sock_rec *r)
{
	int state = r->state & SOCK_STATE_MASK;
	const char *label = sock_states[state].label;
	char *start = p;

	p = stpcpy(p, label ? label : "UNKNOWN");
	p = pad_to(p, start, 11);
	*p++ = ' ';
	p = put_dec(p, r->rx_queue, 6);
	*p++ = ' ';
	p = put_dec(p, state == SOCK_ST_LISTEN ? r->max_backlog : r->tx_queue,
		    6);
	p = put_table_endpoint(p, r->src, r->family, r->sport, false);
	p = put_table_endpoint(p, r->dst, r->family, r->dport, true);
	*p++ = ' ';
	p = put_dec(p, r->uid, 6);
	*p++ = ' ';
	return put_dec(p, r->inode, 0);
}

void sockiter_row_brief(char *buf, const struct sock_rec *r)
{
	char row[ROW_MAX], *p = buf, *end = format_table_row(row, r);
	const char *q;

	for (q = row; q < end && p < buf + SOCK_BRIEF_MAX - 1; q++)
		if (*q != ' ' || (p > buf && p[-1] != ' '))
			*p++ = *q;
	*p = '\0';
}

/* ,"NAME": then a number, or a string */
static char *put_name(char *p, const char *name)
{
	*p++ = ',';
	*p++ = '"';
	p = stpcpy(p, name);
	*p++ = '"';
	*p++ = ':';
	return p;
}

static char *put_number(char *p, const char *name, __u64 v)
{
	return put_dec(put_name(p, name), v, 0);
}

static char *put_signed(char *p, const char *name, __s64 v)
{
	return put_sdec(put_name(p, name), v);
}

static char *put_text(char *p, const char *name, const char *s)
{
	return json_quote(put_name(p, name), s, strlen(s));
}

static char *put_address(char *p, const char *name, const __u32 *addr,
			 int family)
{
	p = put_name(p, name);
	*p++ = '"';
	p = put_addr(p, addr, family);
	*p++ = '"';
	return p;
}

/* TCP's own fields of a full socket */
static char *put_tcp_tail(char *p, const struct sock_rec *r)
{
	p = put_number(p, "rto", r->rto);
	p = put_number(p, "ato", r->ato);
	p = put_number(p, "quick", r->quick_pingpong >> 1);
	p = put_number(p, "pingpong", r->quick_pingpong & 1);
	p = put_number(p, "cwnd", r->cwnd);
	return put_signed(p, r->state == SOCK_ST_LISTEN ? "fastopen_max_qlen" :
							  "ssthresh",
			  r->ssthresh);
}

static char *format_json_row(char *p, const struct sockiter *it,
			     const struct sockiter_row *w, const char *netns)
{
	const struct sock_rec *r = &w->r;
	const char *state = sock_states[r->state & SOCK_STATE_MASK].name;

	p = stpcpy(p, r->family == SOCK_FAMILY_V4 ? "{\"family\":\"inet\"" :
						    "{\"family\":\"inet6\"");
	if (netns)
		p = put_text(p, "netns", netns);
	if (it->proto->tcp_tail)
		p = put_text(p, "kind", kind_names[r->kind % SOCK_KINDS]);
	p = put_number(p, "sl", r->sl);
	p = put_address(p, "local_address", r->src, r->family);
	p = put_number(p, "local_port", r->sport);
	p = put_address(p, "remote_address", r->dst, r->family);
	p = put_number(p, "remote_port", r->dport);
	p = put_number(p, "st", r->state);
	p = put_text(p, "state", state ? state : "unknown");
	p = put_number(p, "tx_queue", r->tx_queue);
	p = put_signed(p, "rx_queue", (__s32)r->rx_queue);
	p = put_number(p, "tr", r->timer);
	p = put_number(p, "tm_when", r->when);
	p = put_number(p, "retrnsmt", r->retransmits);
	p = put_number(p, "uid", r->uid);
	p = put_number(p, "timeout", r->probes);
	p = put_number(p, "inode", r->inode);
	p = put_signed(p, "ref", (__s32)r->refcnt);
	p = json_quote(put_name(p, "pointer"), w->ptr, w->ptr_len);
	if (!it->proto->tcp_tail)
		p = put_number(p, "drops", r->drops);
	else if (r->kind == SOCK_KIND_FULL)
		p = put_tcp_tail(p, r);
	return p;
}

/* mempcpy() */
static char *put_mem(char *p, const void *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/*
 * -p: the owners of the socket with inode, appended to out: ss's
 * " users:((\"COMM\",pid=N,fd=N),...)" (COMM as it is, as ss prints it),
 * or JSON's ,"owners":[{"comm":..,"pid":..,"fd":..},...].
 */
static void put_owners(bool json, __u64 inode)
{
	size_t n, i, len;
	const struct sock_owner_rec *o = sockiter_owners_of(inode, &n);
	char *p;

	if (!n && !json)
		return;
	p = reserve(16);
	p = stpcpy(p, json ? ",\"owners\":[" : " users:(");
	for (i = 0; i < n; i++) {
		out_len = p - out;
		p = reserve(192);
		if (i)
			*p++ = ',';
		len = strnlen(o[i].comm, sizeof(o->comm));
		if (json) {
			p = json_quote(stpcpy(p, "{\"comm\":"), o[i].comm,
				       len);
			p = put_number(p, "pid", o[i].pid);
			p = put_number(p, "fd", o[i].fd);
			*p++ = '}';
		} else {
			p = put_mem(stpcpy(p, "(\""), o[i].comm, len);
			p = put_dec(stpcpy(p, "\",pid="), o[i].pid, 0);
			p = put_dec(stpcpy(p, ",fd="), o[i].fd, 0);
			*p++ = ')';
		}
	}
	*p++ = json ? ']' : ')';
	out_len = p - out;
}

/* ---- -i: TCP's internals, as ss -ti prints them (tcp_show_info() and
 * tcp_stats_print() of iproute2's misc/ss.c), or as JSON ---- */

/* At most this long: every field at its widest. */
#define INFO_MAX 2048

/* The options in ss's order and spelling, by SOCK_OPT_* bit */
static const struct {
	__u8 bit;
	const char *name;
} info_options[] = {
	{ SOCK_OPT_TS, "ts" }, { SOCK_OPT_SACK, "sack" },
	{ SOCK_OPT_ECN, "ecn" }, { SOCK_OPT_ECN_SEEN, "ecnseen" },
	{ SOCK_OPT_SYN_DATA, "fastopen" },
};
#define INFO_OPTIONS (sizeof(info_options) / sizeof(info_options[0]))

/* " KEY:V" */
static char *put_field(char *p, const char *key, __u64 v)
{
	*p++ = ' ';
	p = stpcpy(p, key);
	*p++ = ':';
	return put_dec(p, v, 0);
}

/* " KEY:V" where V is not 0, as ss leaves zeros out */
static char *put_nonzero(char *p, const char *key, __u64 v)
{
	return v ? put_field(p, key, v) : p;
}

/*
 * us as milliseconds in %g, as ss prints times: below a second the
 * three decimals are exact and %g's six digits keep them all, written
 * here; printf for the rest (%g rounds there).
 */
static char *put_ms(char *p, __u32 us)
{
	__u32 frac = us % 1000;

	if (us >= 1000000)
		return p + sprintf(p, "%g", us / 1000.0);
	p = put_dec(p, us / 1000, 0);
	if (!frac)
		return p;
	*p++ = '.';
	*p++ = '0' + frac / 100;
	if (frac % 100) {
		*p++ = '0' + frac / 10 % 10;
		if (frac % 10)
			*p++ = '0' + frac % 10;
	}
	return p;
}

/* ss's send: cwnd * mss bytes a round trip, in bits a second, rounded.
 * In 64 bits (32-bit ARM has no __int128): the whole round trips, then
 * the remainder's share. */
static __u64 info_send_bps(const struct sock_info *in)
{
	__u64 bytes = (__u64)in->cwnd * in->snd_mss;

	if (!in->rtt || !in->snd_mss || !in->cwnd)
		return 0;
	return bytes / in->rtt * 8000000 +
	       (bytes % in->rtt * 8000000 + in->rtt / 2) / in->rtt;
}

/* " busy:Nms rwnd_limited:Nms(P%) sndbuf_limited:Nms(P%)" */
static char *put_busy(char *p, const struct sock_info *in)
{
	if (!in->busy_time)
		return p;
	p = stpcpy(put_dec(stpcpy(p, " busy:"), in->busy_time / 1000, 0),
		   "ms");
	if (in->rwnd_limited)
		p += sprintf(p, " rwnd_limited:%llums(%.1f%%)",
			     (unsigned long long)in->rwnd_limited / 1000,
			     100.0 * in->rwnd_limited / in->busy_time);
	if (in->sndbuf_limited)
		p += sprintf(p, " sndbuf_limited:%llums(%.1f%%)",
			     (unsigned long long)in->sndbuf_limited / 1000,
			     100.0 * in->sndbuf_limited / in->busy_time);
	return p;
}

/* options, congestion control, window scales, timers, sizes */
static char *put_info_head(char *p, const struct sock_info *in)
{
	size_t i;

	for (i = 0; i < INFO_OPTIONS; i++)
		if (in->options & info_options[i].bit)
			p = stpcpy(stpcpy(p, " "), info_options[i].name);
	if (in->cong[0]) {
		*p++ = ' ';
		p = put_mem(p, in->cong, strnlen(in->cong, sizeof(in->cong)));
	}
	if (in->options & SOCK_OPT_WSCALE) {
		p = put_field(p, "wscale", in->snd_wscale);
		*p++ = ',';
		p = put_dec(p, in->rcv_wscale, 0);
	}
	/* ss leaves out the 3 s of kernels before 3.1 */
	if (in->rto && in->rto != 3000000)
		p = put_ms(stpcpy(p, " rto:"), in->rto);
	p = put_nonzero(p, "backoff", in->backoff);
	if (in->rtt) {
		p = put_ms(stpcpy(p, " rtt:"), in->rtt);
		*p++ = '/';
		p = put_ms(p, in->rttvar);
	}
	if (in->ato)
		p = put_ms(stpcpy(p, " ato:"), in->ato);
	p = put_nonzero(p, "mss", in->snd_mss);
	p = put_nonzero(p, "pmtu", in->pmtu);
	p = put_nonzero(p, "rcvmss", in->rcv_mss);
	p = put_nonzero(p, "advmss", in->advmss);
	p = put_nonzero(p, "cwnd", in->cwnd);
	if (in->ssthresh < 0xffff)
		p = put_nonzero(p, "ssthresh", in->ssthresh);
	return p;
}

/* counters, rates, and what the peer and the queues hold */
static char *put_info_tail(char *p, const struct sock_rec *r,
			   const struct sock_info *in)
{
	__u64 send = info_send_bps(in);

	p = put_nonzero(p, "bytes_sent", in->bytes_sent);
	p = put_nonzero(p, "bytes_retrans", in->bytes_retrans);
	p = put_nonzero(p, "bytes_acked", in->bytes_acked);
	p = put_nonzero(p, "bytes_received", in->bytes_received);
	p = put_nonzero(p, "segs_out", in->segs_out);
	p = put_nonzero(p, "segs_in", in->segs_in);
	p = put_nonzero(p, "data_segs_out", in->data_segs_out);
	p = put_nonzero(p, "data_segs_in", in->data_segs_in);
	if (send)
		p = stpcpy(put_dec(stpcpy(p, " send "), send, 0), "bps");
	p = put_nonzero(p, "lastsnd", in->last_data_sent);
	p = put_nonzero(p, "lastrcv", in->last_data_recv);
	p = put_nonzero(p, "lastack", in->last_ack_recv);
	if (in->pacing_rate && in->pacing_rate != SOCK_INFO_NONE) {
		p = put_dec(stpcpy(p, " pacing_rate "), in->pacing_rate * 8, 0);
		p = stpcpy(p, "bps");
		if (in->max_pacing_rate &&
		    in->max_pacing_rate != SOCK_INFO_NONE)
			p = stpcpy(put_dec(stpcpy(p, "/"),
					   in->max_pacing_rate * 8, 0), "bps");
	}
	if (in->delivery_rate)
		p = stpcpy(put_dec(stpcpy(p, " delivery_rate "),
				   in->delivery_rate * 8, 0), "bps");
	p = put_nonzero(p, "delivered", in->delivered);
	p = put_nonzero(p, "delivered_ce", in->delivered_ce);
	if (in->app_limited)
		p = stpcpy(p, " app_limited");
	p = put_busy(p, in);
	p = put_nonzero(p, "unacked", in->unacked);
	if (in->retrans || in->total_retrans) {
		p = put_field(p, "retrans", in->retrans);
		p = put_dec(stpcpy(p, "/"), in->total_retrans, 0);
	}
	p = put_nonzero(p, "lost", in->lost);
	if (r->state != SOCK_ST_LISTEN)	/* there: the backlog */
		p = put_nonzero(p, "sacked", in->sacked);
	p = put_nonzero(p, "dsack_dups", in->dsack_dups);
	if (in->reordering != 3)	/* the default, left out */
		p = put_field(p, "reordering", in->reordering);
	p = put_nonzero(p, "reord_seen", in->reord_seen);
	if (in->rcv_rtt)
		p = put_ms(stpcpy(p, " rcv_rtt:"), in->rcv_rtt);
	p = put_nonzero(p, "rcv_space", in->rcv_space);
	p = put_nonzero(p, "rcv_ssthresh", in->rcv_ssthresh);
	p = put_nonzero(p, "notsent", in->notsent);
	if (in->min_rtt && in->min_rtt != SOCK_INFO_NO_RTT)
		p = put_ms(stpcpy(p, " minrtt:"), in->min_rtt);
	p = put_nonzero(p, "rcv_ooopack", in->rcv_ooopack);
	p = put_nonzero(p, "snd_wnd", in->snd_wnd);
	return put_nonzero(p, "rcv_wnd", in->rcv_wnd);
}

/* ss -ti's second line: a tab, then each field after a space */
static char *format_info_line(char *p, const struct sock_rec *r,
			      const struct sock_info *in)
{
	*p++ = '\n';
	*p++ = '\t';
	return put_info_tail(put_info_head(p, in), r, in);
}

/* A value that may be "none" (all ones): -1 in JSON */
static char *put_or_none(char *p, const char *name, __u64 v, __u64 none)
{
	return v == none ? put_signed(p, name, -1) : put_number(p, name, v);
}

/* A rate in bytes a second that may be none, in bits a second */
static char *put_rate_bps(char *p, const char *name, __u64 rate)
{
	return put_or_none(p, name, rate == SOCK_INFO_NONE ? rate : rate * 8,
			   SOCK_INFO_NONE);
}

/* ,"tcp_info":{"cong":..,"options":[..], then ss's values in their
 * kernel units (named _us, _ms, _bps): every field, zeros too */
static char *format_info_json(char *p, const struct sock_info *in)
{
	size_t i, n = 0;

	p = json_quote(stpcpy(p, ",\"tcp_info\":{\"cong\":"), in->cong,
		       strnlen(in->cong, sizeof(in->cong)));
	p = stpcpy(p, ",\"options\":[");
	for (i = 0; i < INFO_OPTIONS; i++)
		if (in->options & info_options[i].bit)
			p = stpcpy(stpcpy(stpcpy(p, n++ ? ",\"" : "\""),
					  info_options[i].name), "\"");
	*p++ = ']';
	if (in->options & SOCK_OPT_WSCALE) {
		p = put_number(p, "snd_wscale", in->snd_wscale);
		p = put_number(p, "rcv_wscale", in->rcv_wscale);
	}
	p = put_number(p, "rto_us", in->rto);
	p = put_number(p, "backoff", in->backoff);
	p = put_number(p, "rtt_us", in->rtt);
	p = put_number(p, "rttvar_us", in->rttvar);
	p = put_number(p, "ato_us", in->ato);
	p = put_number(p, "mss", in->snd_mss);
	p = put_number(p, "pmtu", in->pmtu);
	p = put_number(p, "rcvmss", in->rcv_mss);
	p = put_number(p, "advmss", in->advmss);
	p = put_number(p, "cwnd", in->cwnd);
	p = put_or_none(p, "ssthresh", in->ssthresh, 0x7fffffff);
	p = put_number(p, "bytes_sent", in->bytes_sent);
	p = put_number(p, "bytes_retrans", in->bytes_retrans);
	p = put_number(p, "bytes_acked", in->bytes_acked);
	p = put_number(p, "bytes_received", in->bytes_received);
	p = put_number(p, "segs_out", in->segs_out);
	p = put_number(p, "segs_in", in->segs_in);
	p = put_number(p, "data_segs_out", in->data_segs_out);
	p = put_number(p, "data_segs_in", in->data_segs_in);
	p = put_number(p, "send_bps", info_send_bps(in));
	p = put_number(p, "lastsnd_ms", in->last_data_sent);
	p = put_number(p, "lastrcv_ms", in->last_data_recv);
	p = put_number(p, "lastack_ms", in->last_ack_recv);
	p = put_rate_bps(p, "pacing_rate_bps", in->pacing_rate);
	p = put_rate_bps(p, "max_pacing_rate_bps", in->max_pacing_rate);
	p = put_number(p, "delivery_rate_bps", in->delivery_rate * 8);
	p = put_number(p, "delivered", in->delivered);
	p = put_number(p, "delivered_ce", in->delivered_ce);
	p = put_number(p, "app_limited", in->app_limited);
	p = put_number(p, "busy_us", in->busy_time);
	p = put_number(p, "rwnd_limited_us", in->rwnd_limited);
	p = put_number(p, "sndbuf_limited_us", in->sndbuf_limited);
	p = put_number(p, "unacked", in->unacked);
	p = put_number(p, "retrans", in->retrans);
	p = put_number(p, "retrans_total", in->total_retrans);
	p = put_number(p, "lost", in->lost);
	p = put_number(p, "sacked", in->sacked);
	p = put_number(p, "dsack_dups", in->dsack_dups);
	p = put_number(p, "reordering", in->reordering);
	p = put_number(p, "reord_seen", in->reord_seen);
	p = put_number(p, "rcv_rtt_us", in->rcv_rtt);
	p = put_number(p, "rcv_space", in->rcv_space);
	p = put_number(p, "rcv_ssthresh", in->rcv_ssthresh);
	p = put_number(p, "notsent", in->notsent);
	p = put_or_none(p, "minrtt_us", in->min_rtt, SOCK_INFO_NO_RTT);
	p = put_number(p, "rcv_ooopack", in->rcv_ooopack);
	p = put_number(p, "snd_wnd", in->snd_wnd);
	p = put_number(p, "rcv_wnd", in->rcv_wnd);
	*p++ = '}';
	return p;
}

/* One row in the form the command line asked for. */
void sockiter_print_row(const struct sockiter *it,
			const struct sockiter_row *w, const char *netns)
{
	char *p;

	if (it->output == SOCK_OUT_PROC) {
		p = format_proc_row(reserve(ROW_MAX), it->proto, &w->r, w->ptr,
				    w->ptr_len);
		out_len = p - out;
		return;
	}
	if (it->output == SOCK_OUT_TABLE)
		p = format_table_row(reserve(ROW_MAX), &w->r);
	else	/* a JSON row is at most twice as long, its netns apart */
		p = format_json_row(reserve(2 * ROW_MAX + (netns ?
					JSON_QUOTED_MAX(strlen(netns)) : 0)),
				    it, w, netns);
	out_len = p - out;
	if (it->owners)
		put_owners(it->output == SOCK_OUT_JSON, w->r.inode);
	if (it->info && w->r.kind == SOCK_KIND_FULL) {
		p = reserve(INFO_MAX);
		p = it->output == SOCK_OUT_JSON ?
		    format_info_json(p, &w->info) :
		    format_info_line(p, &w->r, &w->info);
		out_len = p - out;
	}
	p = reserve(2);
	if (it->output == SOCK_OUT_JSON)
		*p++ = '}';
	*p++ = '\n';
	out_len = p - out;
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

/* ---- what the text needs to know of the kernel ---- */

/* CONFIG_HZ from the kernel's config where distributions keep it. */
static __u32 config_hz(void)
{
	char path[128], line[256];
	struct utsname u;
	long hz = 0;
	gzFile f;

	uname(&u);
	snprintf(path, sizeof(path), "/boot/config-%s", u.release);
	f = gzopen(path, "r");	/* reads plain files too */
	if (!f)
		f = gzopen("/proc/config.gz", "r");
	if (!f)
		return 0;
	while (gzgets(f, line, sizeof(line)))
		if (!strncmp(line, "CONFIG_HZ=", 10)) {
			hz = strtol(line + 10, NULL, 10);
			break;
		}
	gzclose(f);
	return hz > 0 ? hz : 0;
}

/*
 * HZ from one sample of jiffies and the monotonic clock: jiffies start at
 * INITIAL_JIFFIES, (u32)(-300 * HZ), and then count HZ a second.  Returns
 * the candidate that fits, or 0 when none fits clearly (near 5 minutes of
 * uptime every HZ gives the same jiffies).
 */
static __u32 hz_from_jiffies(__u64 jiffies, __u64 now_ns)
{
	static const __u32 candidates[] = { 100, 250, 300, 1000 };
	__u64 best = ~0ULL, second = ~0ULL;
	__u32 hz = 0;
	size_t i;

	for (i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
		__u64 h = candidates[i];
		__u64 want = (__u32)-(300 * h) + now_ns / 1000000 * h / 1000;
		__u64 err = want > jiffies ? want - jiffies : jiffies - want;

		if (err < best) {
			second = best;
			best = err;
			hz = h;
		} else if (err < second) {
			second = err;
		}
	}
	return best < hz && best * 8 < second ? hz : 0;
}

static __u32 sampled_hz(void)
{
	char buf[8192], *now, *jif;

	if (read_text("/proc/timer_list", buf, sizeof(buf)) < 0)
		return 0;
	now = strstr(buf, "\nnow at ");
	jif = strstr(buf, "\njiffies: ");
	if (!now || !jif)
		return 0;
	return hz_from_jiffies(strtoull(jif + 10, NULL, 10),
			       strtoull(now + 8, NULL, 10));
}

__u32 sockiter_kernel_hz(bool verbose)
{
	__u32 hz = config_hz();

	if (!hz)
		hz = sampled_hz();
	if (!hz) {
		hz = 250;
		if (verbose)
			warn_msg("cannot tell the kernel's HZ; assuming 250 "
				 "(Debian's): timers may be off");
	}
	return hz;
}

/* /proc/net/udp's header gained a third leading space in 5.16 ("net:
 * udp: fix alignment problem in udp4_seq_show()"), and in some stable
 * kernels: older kernels are asked through /proc when it is there.  Not
 * for every kernel: reading /proc/net/udp walks UDP's hash, a few ms. */
bool sockiter_udp_header_wide(void)
{
	char head[4] = "";
	struct utsname u;
	int major = 0, minor = 0, fd;
	ssize_t n;

	uname(&u);
	sscanf(u.release, "%d.%d", &major, &minor);
	if (major > 5 || (major == 5 && minor >= 16))
		return true;
	fd = open("/proc/net/udp", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, head, 3);
	close(fd);
	return n == 3 && !strcmp(head, "   ");
}
