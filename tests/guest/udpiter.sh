# udpiter on this kernel: the socket zoo against /proc/net/udp and udp6
# modules: inet_diag udp_diag
# (tests/sockcheck.sh; udpiter.host put its tools in /data/sock).
. /tests/lib.sh
P=udp
. /data/sock/sockcheck.sh
guest_main 2>&1 | only_log_lines
