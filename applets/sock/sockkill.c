// SPDX-License-Identifier: GPL-2.0
/*
 * tcpiter kill, udpiter kill: what becomes of each socket the walk chose.
 * On 6.5 and later the program closed the full sockets itself, with the
 * bpf_sock_destroy() kfunc (commit 4ddbcb886268), and left the rest
 * (request and TIME_WAIT sockets) here; before, every socket is closed
 * here, through inet_diag's SOCK_DESTROY (CONFIG_INET_DIAG_DESTROY), as
 * ss -K does.  Either way the kernel's tcp_abort() or udp_abort() does it: the
 * peer of a TCP socket sees a reset, and the owner's next call fails with
 * ECONNABORTED.
 */
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>

#include "core/kit.h"
#include "sock/sockkill.h"
#include "sock/sockload.h"

/* Not an errno the kernel returns here: kill's own refusal. */
#define KILL_NO_DIAG	(-ENOPKG)	/* no inet_diag for the protocol */
/* Not an answer of the kernel's: sock_diag could not be asked, diag_err
 * says why. */
#define DIAG_BROKEN	INT_MIN

/* What kill's messages say more than once. */
#define NO_DIAG	"the kernel has no inet_diag for %s (modprobe %s_diag)"

static struct sock_kill_stats stats;
static struct kit_err diag_err;

static int diag_fd = -1;
static __u32 diag_seq;

/* what went wrong, with errno's reason, in diag_err */
static int diag_broken(const char *what)
{
	kit_fail(&diag_err, EXIT_RUNTIME, errno, "%s", what);
	return DIAG_BROKEN;
}

/*
 * One request, and the kernel's answer: 0 or -errno (DIAG_BROKEN: not
 * asked); each socket's message (SOCK_DIAG_BY_FAMILY: one, or with
 * NLM_F_DUMP all) given to each.
 */
static int diag_ask(__u16 type, __u16 flags,
		    const struct inet_diag_req_v2 *req,
		    void (*each)(const struct inet_diag_msg *msg))
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 req;
	} rq = {
		.nlh = {
			.nlmsg_len = sizeof(rq),
			.nlmsg_type = type,
			.nlmsg_flags = NLM_F_REQUEST | flags,
			.nlmsg_seq = ++diag_seq,
		},
		.req = *req,
	};
	static char buf[16384];
	struct nlmsghdr *nlh;
	ssize_t n;

	if (diag_fd < 0)
		diag_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
				 NETLINK_SOCK_DIAG);
	if (diag_fd < 0)
		return diag_broken("cannot open a sock_diag netlink socket");
	if (send(diag_fd, &rq, sizeof(rq), 0) < 0)
		return diag_broken("cannot ask sock_diag");
	for (;;) {
		n = recv(diag_fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return diag_broken("cannot read sock_diag's answer");
		for (nlh = (void *)buf; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_seq != diag_seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR)
				return ((struct nlmsgerr *)NLMSG_DATA(nlh))->error;
			if (nlh->nlmsg_type == NLMSG_DONE)
				return 0;
			if (each)
				each(NLMSG_DATA(nlh));
			if (!(flags & NLM_F_DUMP))
				return 0;
		}
	}
}

/* inet_diag's name of the socket in w; cookie 0: any (INET_DIAG_NOCOOKIE) */
static void diag_id(struct inet_diag_req_v2 *req,
		    const struct sockiter_proto *proto,
		    const struct sockiter_row *w, __u64 cookie)
{
	memset(req, 0, sizeof(*req));
	req->sdiag_family = w->r.family == SOCK_FAMILY_V4 ? AF_INET : AF_INET6;
	req->sdiag_protocol = proto->tcp_tail ? IPPROTO_TCP : IPPROTO_UDP;
	req->idiag_states = ~0U;
	req->id.idiag_sport = htons(w->r.sport);
	req->id.idiag_dport = htons(w->r.dport);
	memcpy(req->id.idiag_src, w->r.src, sizeof(req->id.idiag_src));
	memcpy(req->id.idiag_dst, w->r.dst, sizeof(req->id.idiag_dst));
	req->id.idiag_if = w->kill.ifindex;
	req->id.idiag_cookie[0] = cookie ? (__u32)cookie : INET_DIAG_NOCOOKIE;
	req->id.idiag_cookie[1] = cookie ? cookie >> 32 : INET_DIAG_NOCOOKIE;
}

/* udp_dump_one() looks a socket up by its ends the other way round
 * ("src and dst are swapped for historical reasons"), its destroy not. */
static void swap_ends(struct inet_diag_sockid *id)
{
	struct inet_diag_sockid was = *id;

	memcpy(id->idiag_src, was.idiag_dst, sizeof(id->idiag_src));
	memcpy(id->idiag_dst, was.idiag_src, sizeof(id->idiag_dst));
	id->idiag_sport = was.idiag_dport;
	id->idiag_dport = was.idiag_sport;
}

/*
 * Can inet_diag close PROTO's sockets?  Asked once, of a socket that
 * cannot exist (port 0, a cookie): a kernel that can answers ENOENT, one
 * without CONFIG_INET_DIAG_DESTROY EOPNOTSUPP.  A dump that asks for no
 * state first tells whether inet_diag is there for the protocol at all.
 */
static int diag_support(const struct sockiter_proto *proto)
{
	static int support = 1;
	struct sockiter_row none = { .r.family = SOCK_FAMILY_V4 };
	struct inet_diag_req_v2 req;

	if (support <= 0)
		return support;
	diag_id(&req, proto, &none, 1);
	req.idiag_states = 0;
	support = diag_ask(SOCK_DIAG_BY_FAMILY, NLM_F_DUMP, &req, NULL);
	if (support == DIAG_BROKEN)
		return support;
	if (support == -ENOENT) {
		support = KILL_NO_DIAG;
		return support;
	}
	support = diag_ask(SOCK_DESTROY, NLM_F_ACK, &req, NULL);
	if (support == -ENOENT)
		support = 0;
	return support;
}

/* Sockets as inet_diag names them: their inode and cookie. */
struct inode_cookie {
	__u32 inode;
	__u64 cookie;
};

static struct inode_cookie found;	/* by the last lookup */
static struct inode_cookie *dumped;	/* by the last dump */
static size_t n_dumped, dumped_cap;

static struct inode_cookie named(const struct inet_diag_msg *msg)
{
	return (struct inode_cookie){
		.inode = msg->idiag_inode,
		.cookie = msg->id.idiag_cookie[0] |
			  (__u64)msg->id.idiag_cookie[1] << 32,
	};
}

static void take_found(const struct inet_diag_msg *msg)
{
	found = named(msg);
}

static bool dumped_oom;		/* a dump's sockets did not all fit */

static void take_dumped(const struct inet_diag_msg *msg)
{
	struct inode_cookie *more = grow(dumped, &dumped_cap, n_dumped + 1,
					 sizeof(*dumped));

	if (!more) {
		dumped_oom = true;
		return;
	}
	dumped = more;
	dumped[n_dumped++] = named(msg);
}

/* The cookie the last dump gave the socket of this inode, if it did. */
static bool dumped_cookie(__u32 inode, __u64 *cookie)
{
	size_t i;

	for (i = 0; i < n_dumped; i++) {
		if (dumped[i].inode == inode) {
			*cookie = dumped[i].cookie;
			return true;
		}
	}
	return false;
}

/*
 * The cookie of w's socket, that has none yet (before 6.5 the walk reads
 * the field; the kernel makes one when asked): the one of the socket the
 * lookup of its address finds, if that is the socket walked; else (a
 * SO_REUSEPORT group shares its address) the one of its inode in a dump
 * of every socket of its family and state, which names them all.  That
 * dump serves the next sockets of the family and state; one not in it
 * may be newer, and gets a new dump.  -ENOENT: the socket is gone.
 */
static int diag_cookie(const struct sockiter_proto *proto,
		       const struct sockiter_row *w, __u64 *cookie)
{
	static int dump_key = -1;
	int key = w->r.family << 8 | w->r.state, err;
	__u32 inode = w->r.inode;
	struct inet_diag_req_v2 req;

	diag_id(&req, proto, w, 0);
	if (!proto->tcp_tail)
		swap_ends(&req.id);
	err = diag_ask(SOCK_DIAG_BY_FAMILY, 0, &req, take_found);
	*cookie = found.cookie;
	if (err || found.inode == inode)
		return err;
	if (dump_key == key && dumped_cookie(inode, cookie))
		return 0;
	memset(&req.id, 0, sizeof(req.id));
	req.idiag_states = 1U << (w->r.state & 31);
	n_dumped = 0;
	dump_key = -1;
	dumped_oom = false;
	err = diag_ask(SOCK_DIAG_BY_FAMILY, NLM_F_DUMP, &req, take_dumped);
	if (err)
		return err;
	if (dumped_oom) {
		kit_fail(&diag_err, EXIT_RUNTIME, 0, "out of memory");
		return DIAG_BROKEN;
	}
	dump_key = key;
	return dumped_cookie(inode, cookie) ? 0 : -ENOENT;
}

/* Peer ports to try: a socket of a group of N is missed by all with a
 * chance of (1 - 1/N)^TRIES, e^-20 for N = 200. */
#define REUSEPORT_TRIES	4096

/* Closes w's socket through inet_diag: 0 or -errno. */
static int diag_destroy(const struct sockiter_proto *proto,
			const struct sockiter_row *w)
{
	struct inet_diag_req_v2 req;
	__u64 cookie = w->kill.cookie;
	int err = diag_support(proto), port;

	if (!err && !cookie)
		err = diag_cookie(proto, w, &cookie);
	if (err)
		return err;
	diag_id(&req, proto, w, cookie);
	err = diag_ask(SOCK_DESTROY, NLM_F_ACK, &req, NULL);
	/* A SO_REUSEPORT group answers the lookup with one of its sockets,
	 * chosen by a hash of the peer's address: another peer port may
	 * choose this one (the cookie makes sure).  A socket with no peer
	 * that none chooses is gone. */
	for (port = 1; err == -ENOENT && !w->r.dport &&
	     port <= REUSEPORT_TRIES; port++) {
		req.id.idiag_dport = htons(port);
		err = diag_ask(SOCK_DESTROY, NLM_F_ACK, &req, NULL);
	}
	return err;
}

static const char *kill_reason(const struct sockiter_proto *proto,
			       const struct sockiter_row *w, int err)
{
	static char reason[160];

	switch (err) {
	case KILL_NO_DIAG:
		snprintf(reason, sizeof(reason), NO_DIAG, proto->name,
			 proto->name);
		return reason;
	case -EOPNOTSUPP:	/* inet_diag can destroy: diag_support() */
		if (w->r.kind == SOCK_KIND_TIMEWAIT)
			return "this kernel's tcp_abort() does not close "
			       "TIME_WAIT sockets";
		break;
	case -EPERM:
		return "need " SOCK_KILL_PRIVILEGES;
	}
	return strerror(-err);
}

int sock_kill_check(const struct sockiter_proto *proto, struct kit_err *e)
{
	int err;

	if (!sock_has_cap(CAP_NET_ADMIN))
		return kit_fail(e, EXIT_RUNTIME, 0, "kill needs "
				SOCK_KILL_PRIVILEGES " to "
				"close sockets through inet_diag (kernels "
				"before 6.5)");
	err = diag_support(proto);
	if (err == DIAG_BROKEN) {
		*e = diag_err;
		return -1;
	}
	if (err == -EOPNOTSUPP)
		return kit_fail(e, EXIT_RUNTIME, 0, "kill needs Linux 6.5 (the "
				"bpf_sock_destroy kfunc) or a kernel built "
				"with CONFIG_INET_DIAG_DESTROY: this one has "
				"neither");
	if (err == KILL_NO_DIAG)
		return kit_fail(e, EXIT_RUNTIME, 0,
				"kill: " NO_DIAG, proto->name, proto->name);
	if (err)
		return kit_fail(e, EXIT_RUNTIME, 0,
				"kill: cannot close sockets through "
				"inet_diag: %s", strerror(-err));
	return 0;
}

int sock_kill_row(const struct sockiter *it, const struct sockiter_row *w,
		  const char **reason, struct kit_err *e)
{
	int err = 0;

	if (!it->dry_run)
		err = w->kill.err == SOCK_KILL_NETLINK ?
		      diag_destroy(it->proto, w) : w->kill.err;
	if (err == DIAG_BROKEN) {
		*e = diag_err;
		return -1;
	}
	if (!err) {
		stats.closed++;
		return SOCK_KILL_CLOSED;
	}
	if (err == -ENOENT) {	/* closed by its owner meanwhile */
		stats.gone++;
		return SOCK_KILL_GONE;
	}
	stats.refused++;
	*reason = kill_reason(it->proto, w, err);
	return SOCK_KILL_REFUSED;
}

const struct sock_kill_stats *sock_kill_stats(void)
{
	return &stats;
}
