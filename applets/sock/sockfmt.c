// SPDX-License-Identifier: GPL-2.0
/*
 * tcpiter, udpiter: the text of rows in each form.  /proc/net/{tcp,udp}
 * {,6}'s as the kernel formats it (seq_printf's widths, %pK's hash as the
 * program printed it, rows padded as seq_pad does), ss's table, and JSON.
 * Hand-written hex and decimal conversion (sockput.h), into a buffer
 * written out in pieces that stay in the cache: printf took longer than
 * the kernel's walk.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/kit.h"
#include "sock/sockfmt.h"
#include "sock/sockinfo.h"
#include "sock/sockput.h"

static const char *const kind_names[SOCK_KINDS] = {
	[SOCK_KIND_FULL] = "socket", [SOCK_KIND_TIMEWAIT] = "timewait",
	[SOCK_KIND_REQUEST] = "request",
};

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

char *sock_format_proc_row(char *p, const struct sockiter_proto *proto,
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
	if (ptr_len > SOCK_PTR_MAX)
		ptr_len = SOCK_PTR_MAX;
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

/* The errno of the first write that failed: what follows is dropped. */
static int out_err;

/* 0, or -1 with errno set when a write failed. */
static int out_status(void)
{
	errno = out_err;
	return out_err ? -1 : 0;
}

static void write_out(void)
{
	if (!out_err && write_all(STDOUT_FILENO, out, out_len) < 0)
		out_err = errno;
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
void sock_fmt_proc_header(const struct sockiter *it, int family)
{
	const struct sockiter_proto *proto = it->proto;
	const char *h = family == SOCK_FAMILY_V4 ? proto->header4 :
						   proto->header6;
	char *start = reserve(SOCK_ROW_MAX), *p = start;

	if (family == SOCK_FAMILY_V4 && !proto->tcp_tail)
		h += PROC_UDP_HEADER4_SKIP(it->config.udp_header_wide);
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

void sock_fmt_table_header(const struct sockiter *it)
{
	char *p = reserve(SOCK_ROW_MAX);

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

void sock_row_brief(char *buf, const struct sock_rec *r)
{
	char row[SOCK_ROW_MAX], *p = buf, *end = format_table_row(row, r);
	const char *q;

	for (q = row; q < end && p < buf + SOCK_BRIEF_MAX - 1; q++)
		if (*q != ' ' || (p > buf && p[-1] != ' '))
			*p++ = *q;
	*p = '\0';
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

/*
 * -p: the owners o[0..n) of a socket, appended to out: ss's
 * " users:((\"COMM\",pid=N,fd=N),...)" (COMM as it is, as ss prints it),
 * or JSON's ,"owners":[{"comm":..,"pid":..,"fd":..},...].
 */
static void put_owners(bool json, const struct sock_owner_rec *o, size_t n)
{
	size_t i, len;
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

int sock_fmt_row(const struct sockiter *it, const struct sockiter_row *w,
		 const char *netns, const struct sock_owner_rec *owners,
		 size_t n_owners)
{
	char *p;

	if (it->output == SOCK_OUT_PROC) {
		p = sock_format_proc_row(reserve(SOCK_ROW_MAX), it->proto,
					 &w->r, w->ptr, w->ptr_len);
		out_len = p - out;
		return out_status();
	}
	if (it->output == SOCK_OUT_TABLE)
		p = format_table_row(reserve(SOCK_ROW_MAX), &w->r);
	else	/* a JSON row is at most twice as long, its netns apart */
		p = format_json_row(reserve(2 * SOCK_ROW_MAX + (netns ?
					JSON_QUOTED_MAX(strlen(netns)) : 0)),
				    it, w, netns);
	out_len = p - out;
	if (it->owners)
		put_owners(it->output == SOCK_OUT_JSON, owners, n_owners);
	if (it->config.want_info && w->r.kind == SOCK_KIND_FULL) {
		p = reserve(SOCK_INFO_MAX);
		p = it->output == SOCK_OUT_JSON ?
		    sock_format_info_json(p, &w->info) :
		    sock_format_info_line(p, &w->r, &w->info);
		out_len = p - out;
	}
	p = reserve(2);
	if (it->output == SOCK_OUT_JSON)
		*p++ = '}';
	*p++ = '\n';
	out_len = p - out;
	return out_status();
}

int sock_fmt_flush(void)
{
	if (fflush(stdout) || ferror(stdout))
		return -1;
	if (out_len)
		write_out();
	return out_status();
}

void sock_fmt_counts(const struct sockiter *it,
		     __u64 (*counts)[SOCK_TCP_STATES])
{
	__u64 sum[2] = { 0 };
	int i;

	if (!it->no_header)
		printf("%-12s %8s %8s %8s\n", "State", "IPv4", "IPv6", "Total");
	for (i = 1; i < SOCK_TCP_STATES; i++) {
		sum[0] += counts[0][i];
		sum[1] += counts[1][i];
		if (!(it->proto->count_states & (1U << i)))	/* all named */
			continue;
		printf("%-12s %8llu %8llu %8llu\n", sock_states[i].name,
		       (unsigned long long)counts[0][i],
		       (unsigned long long)counts[1][i],
		       (unsigned long long)(counts[0][i] + counts[1][i]));
	}
	printf("%-12s %8llu %8llu %8llu\n", "total", (unsigned long long)sum[0],
	       (unsigned long long)sum[1], (unsigned long long)(sum[0] + sum[1]));
}
