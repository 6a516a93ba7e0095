// SPDX-License-Identifier: GPL-2.0
/*
 * tcpiter: every TCP socket of a network namespace, full, TIME_WAIT and
 * request sockets, IPv4 and IPv6, with the fields of /proc/net/tcp and
 * tcp6 (net/ipv4/tcp_ipv4.c get_tcp4_sock(), get_timewait4_sock(),
 * get_openreq4(); net/ipv6/tcp_ipv6.c likewise).
 */
#include "sockiter.bpf.h"

#define ICSK_TIME_RETRANS	1
#define ICSK_TIME_PROBE0	3
#define ICSK_TIME_LOSS_PROBE	5
#define ICSK_TIME_REO_TIMEOUT	6

#define TCP_INFINITE_SSTHRESH	0x7fffffff

static const char header4[] = PROC_TCP_HEADER4;
static const char header6[] = PROC_TCP_HEADER6;

/*
 * /proc/net/tcp's sl: the row's ordinal within its family.  A row that
 * did not fit the 32 KiB read buffer is shown again by the next read(),
 * with the same seq_num: take its number back first.
 */
static __u32 ordinal(struct session *s, __u64 seq_num, int family)
{
	if (s->last_seq == seq_num + 1)
		s->next[s->last_family & 1]--;
	s->last_seq = seq_num + 1;
	s->last_family = family;
	return s->next[family & 1]++;
}

static long timer_delta(unsigned long expires)
{
	return jiffies_delta_to_clock_t(expires - bpf_jiffies64(), config.hz);
}

/* Batching kernels (5.15+) hold a reference on every socket of the batch
 * while the program runs: /proc does not see it. */
static __u32 refcnt(const struct sock_common *skc)
{
	__u32 refs = skc->skc_refcnt.refs.counter;

	return bpf_core_type_exists(struct bpf_tcp_iter_state) ? refs - 1 : refs;
}

/* icsk_timeout(): the retransmit (or zero window probe) timer's expiry. */
static unsigned long retransmit_expires(struct inet_connection_sock *icsk)
{
	if (bpf_core_field_exists(icsk->icsk_inet.sk.tcp_retransmit_timer))
		return icsk->icsk_inet.sk.tcp_retransmit_timer.expires;
	if (bpf_core_field_exists(icsk->icsk_timeout))
		return icsk->icsk_timeout;
	return icsk->icsk_retransmit_timer.expires;
}

/* Whether the keepalive timer is pending, and its expiry: sk_timer until
 * "tcp: introduce icsk->icsk_keepalive_timer" (6.19), which Debian's 6.1
 * and 6.12 carry too: the field, not the version, tells. */
static bool keepalive_pending(struct inet_connection_sock *icsk,
			      unsigned long *expires)
{
	if (bpf_core_field_exists(icsk->icsk_keepalive_timer)) {
		*expires = icsk->icsk_keepalive_timer.expires;
		return icsk->icsk_keepalive_timer.entry.pprev;
	}
	*expires = icsk->icsk_inet.sk.sk_timer.expires;
	return icsk->icsk_inet.sk.sk_timer.entry.pprev;
}

/* inet_csk_in_pingpong_mode(): the threshold is 1 since 5.19 (and 5.10
 * stable), a per-netns sysctl since "tcp: add sysctl_tcp_pingpong_thresh"
 * (6.7). */
static __u32 pingpong(struct tcp_sock *tp)
{
	struct inet_connection_sock *icsk = &tp->inet_conn;
	__u8 thresh = 1;

	if (bpf_core_field_exists(struct net, ipv4.sysctl_tcp_pingpong_thresh))
		thresh = icsk->icsk_inet.sk.__sk_common.skc_net.net->ipv4
				.sysctl_tcp_pingpong_thresh;
	return icsk->icsk_ack.pingpong >= thresh;
}

static void read_full(struct sock_rec *r, struct tcp_sock *tp)
{
	struct inet_connection_sock *icsk = &tp->inet_conn;
	struct sock *sk = &icsk->icsk_inet.sk;
	__u8 pending = icsk->icsk_pending;
	unsigned long keepalive;
	__s32 rx;

	if (pending == ICSK_TIME_RETRANS || pending == ICSK_TIME_REO_TIMEOUT ||
	    pending == ICSK_TIME_LOSS_PROBE || pending == ICSK_TIME_PROBE0) {
		r->timer = pending == ICSK_TIME_PROBE0 ? SOCK_TIMER_PROBE0 :
			   SOCK_TIMER_RETRANSMIT;
		r->when = timer_delta(retransmit_expires(icsk));
	} else if (keepalive_pending(icsk, &keepalive)) {
		r->timer = SOCK_TIMER_KEEPALIVE;
		r->when = timer_delta(keepalive);
	}
	r->tx_queue = tp->write_seq - tp->snd_una;
	rx = tp->rcv_nxt - tp->copied_seq;
	r->rx_queue = r->state == SOCK_ST_LISTEN ? sk->sk_ack_backlog :
		      rx > 0 ? rx : 0;
	r->retransmits = icsk->icsk_retransmits;
	r->probes = icsk->icsk_probes_out;
	r->inode = sock_inode(sk);
	r->refcnt = refcnt(&sk->__sk_common);
	r->rto = jiffies_to_clock_t(icsk->icsk_rto, config.hz);
	r->ato = jiffies_to_clock_t(BPF_CORE_READ_BITFIELD(icsk,
					icsk_ack.ato), config.hz);
	r->quick_pingpong = (icsk->icsk_ack.quick << 1) | pingpong(tp);
	r->cwnd = tp->snd_cwnd;
	if (r->state == SOCK_ST_LISTEN) {
		r->ssthresh = icsk->icsk_accept_queue.fastopenq.max_qlen;
		r->max_backlog = sk->sk_max_ack_backlog;
	} else if (tp->snd_ssthresh >= TCP_INFINITE_SSTHRESH)
		r->ssthresh = -1;
	else
		r->ssthresh = tp->snd_ssthresh;
}

static void read_timewait(struct sock_rec *r, struct inet_timewait_sock *tw)
{
	r->kind = SOCK_KIND_TIMEWAIT;
	r->state = tw->tw_substate;
	r->sport = bpf_ntohs(tw->tw_sport);
	r->timer = SOCK_TIMER_TIMEWAIT;
	r->when = timer_delta(tw->tw_timer.expires);
	r->refcnt = refcnt(&tw->__tw_common);
}

static void read_request(struct sock_rec *r, struct request_sock *req)
{
	r->kind = SOCK_KIND_REQUEST;
	r->state = SOCK_ST_SYN_RECV;
	r->sport = req->__req_common.skc_num;
	r->timer = SOCK_TIMER_RETRANSMIT;
	r->when = timer_delta(req->rsk_timer.expires);
	r->retransmits = BPF_CORE_READ_BITFIELD(req, num_timeout);
}

static void print_text(struct seq_file *seq, struct session *s,
		       const struct sock_rec *r, const void *ptr)
{
	__u32 len = text_head(seq, r, ptr, PROC_TCP_SL_WIDTH);

	if (r->kind == SOCK_KIND_FULL) {
		BPF_SEQ_PRINTF(seq, " %lu %lu %u %u %d", r->rto, r->ato,
			       r->quick_pingpong, r->cwnd, r->ssthresh);
		len += 5 + dec_len(r->rto) + dec_len(r->ato) +
		       dec_len(r->quick_pingpong) + dec_len(r->cwnd) +
		       sdec_len(r->ssthresh);
	}
	end_line(seq, s, len,
		 r->family == SOCK_FAMILY_V4 ? PROC_TCP_WIDTH4 : 0);
}

SEC("iter/tcp")
int tcp_iter(struct bpf_iter__tcp *ctx)
{
	struct sock_common *skc = ctx->sk_common;
	struct seq_file *seq = ctx->meta->seq;
	struct tcp_timewait_sock *tw;
	struct tcp_request_sock *req;
	struct tcp_sock *tp = NULL;
	struct sock_rec r = {};
	struct session *s = NULL;

	if (config.mode != SOCK_MODE_COUNT) {
		s = get_session(ctx->meta);
		if (!s)
			return 0;
	}
	if (config.mode == SOCK_MODE_TEXT)
		text_header(seq, s, header4, sizeof(header4) - 1,
			    PROC_TCP_WIDTH4,
			    header6, sizeof(header6) - 1);
	if (!skc)
		return 0;
	/* The listening hash is walked first: the first socket of the
	 * established hash marks its end, and the reader stops there. */
	if (config.listeners_only && skc->skc_state != SOCK_ST_LISTEN) {
		r.kind = SOCK_KIND_END;
		emit_record(seq, &r, skc, true);
		return 0;
	}
	r.family = skc->skc_family == AF_INET6 ? SOCK_FAMILY_V6 :
						 SOCK_FAMILY_V4;
	if (!(config.filter.families & (1 << r.family)))
		return 0;
	if (s)
		r.sl = ordinal(s, ctx->meta->seq_num, r.family);

	read_addrs(&r, skc);
	r.dport = bpf_ntohs(skc->skc_dport);
	r.state = skc->skc_state;
	/* The TCP structs begin with the generic ones: casts, not member
	 * accesses, that would each be a struct for libbpf to look up. */
	if (r.state == SOCK_ST_TIME_WAIT) {
		tw = bpf_skc_to_tcp_timewait_sock(skc);
		if (!tw)
			return 0;
		read_timewait(&r, (struct inet_timewait_sock *)tw);
	} else if (r.state == SOCK_ST_NEW_SYN_RECV) {
		req = bpf_skc_to_tcp_request_sock(skc);
		if (!req)
			return 0;
		r.uid = ctx->uid;
		read_request(&r, (struct request_sock *)req);
	} else {
		tp = bpf_skc_to_tcp_sock(skc);
		if (!tp)
			return 0;
		r.uid = ctx->uid;
		r.kind = SOCK_KIND_FULL;
		r.sport = bpf_ntohs(tp->inet_conn.icsk_inet.inet_sport);
	}
	if (!rec_match(&r))
		return 0;
	if (config.mode == SOCK_MODE_COUNT) {
		count(&r);
		return 0;
	}
	/* after the filter: these reads miss the cache */
	if (tp)
		read_full(&r, tp);
	if (config.mode == SOCK_MODE_TEXT)
		print_text(seq, s, &r, skc);
	else
		emit_record(seq, &r, skc, true);
	return 0;
}
