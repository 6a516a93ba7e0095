# tcpiter on this kernel: the socket zoo against /proc/net/tcp and tcp6
# modules: inet_diag tcp_diag
# (tests/sockcheck.sh; tcpiter.host put its tools in /data/sock).
. /tests/lib.sh
P=tcp
. /data/sock/sockcheck.sh
guest_main 2>&1 | only_log_lines
