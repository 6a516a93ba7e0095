// SPDX-License-Identifier: GPL-2.0
/*
 * tcpiter -i: TCP's internals, as ss -ti prints them (tcp_show_info() and
 * tcp_stats_print() of iproute2's misc/ss.c), or as JSON.
 */
#include <stdio.h>
#include <string.h>

#include "core/kit.h"
#include "sock/sockinfo.h"
#include "sock/sockput.h"

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
char *sock_put_ms(char *p, __u32 us)
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
	/* ss leaves out the 3 s of kernels before 3.1 (commit 9ad7c049f0f7,
	 * "tcp: RFC2988bis + taking RTT sample from 3WHS for the passive
	 * open side") */
	if (in->rto && in->rto != 3000000)
		p = sock_put_ms(stpcpy(p, " rto:"), in->rto);
	p = put_nonzero(p, "backoff", in->backoff);
	if (in->rtt) {
		p = sock_put_ms(stpcpy(p, " rtt:"), in->rtt);
		*p++ = '/';
		p = sock_put_ms(p, in->rttvar);
	}
	if (in->ato)
		p = sock_put_ms(stpcpy(p, " ato:"), in->ato);
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
		p = sock_put_ms(stpcpy(p, " rcv_rtt:"), in->rcv_rtt);
	p = put_nonzero(p, "rcv_space", in->rcv_space);
	p = put_nonzero(p, "rcv_ssthresh", in->rcv_ssthresh);
	p = put_nonzero(p, "notsent", in->notsent);
	if (in->min_rtt && in->min_rtt != SOCK_INFO_NO_RTT)
		p = sock_put_ms(stpcpy(p, " minrtt:"), in->min_rtt);
	p = put_nonzero(p, "rcv_ooopack", in->rcv_ooopack);
	p = put_nonzero(p, "snd_wnd", in->snd_wnd);
	return put_nonzero(p, "rcv_wnd", in->rcv_wnd);
}

/* ss -ti's second line: a tab, then each field after a space */
char *sock_format_info_line(char *p, const struct sock_rec *r,
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
char *sock_format_info_json(char *p, const struct sock_info *in)
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
	p = put_or_none(p, "ssthresh", in->ssthresh,
			SOCK_INFINITE_SSTHRESH);
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
