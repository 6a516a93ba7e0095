# Debian's packages without the host's dpkg: a private apt configuration
# in a cache directory, whose lists and downloads are its own, for
# tests/vm/fetch (kernels) and tests/sysroot (cross sysroots).  Nothing
# is installed and `dpkg --add-architecture` is never run: a package is
# downloaded and unpacked with dpkg -x.  Sourced (bash).

# cache_lock CACHE NAME: holds CACHE/.NAME.lock until the script ends:
# suites that run side by side (tests/run) fetch into one cache.
cache_lock() {
	local fd

	exec {fd}>"$1/.$2.lock"
	flock "$fd"
}

# The host's Debian release (bookworm, trixie): its packages match the
# host's compilers.
host_suite() {
	. /etc/os-release && echo "$VERSION_CODENAME"
}

# private_apt DIR ARCHES SUITE...: sets apt, the options of an apt that
# reads the lists of these suites (main, debian-security for
# *-security) for the comma-separated ARCHES into DIR.  Root runs apt's
# downloads itself: the cache need not be _apt's.  An empty dpkg status
# hides the host's installed packages, which would otherwise be offered
# as candidates.
private_apt() {
	local dir=$1 arches=$2 suite

	shift 2
	mkdir -p "$dir/lists/partial" "$dir/cache"
	[ -f "$dir/status" ] || : >"$dir/status"
	for suite; do
		case $suite in
		*-security) echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security $suite main" ;;
		*) echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" ;;
		esac
	done >"$dir/sources.list"
	apt=(-q -o APT::Sandbox::User=root -o APT::Architectures="$arches"
	     -o Dir::Etc::SourceList="$dir/sources.list"
	     -o Dir::Etc::SourceParts=/nonexistent
	     -o Dir::State::Lists="$dir/lists"
	     -o Dir::State::status="$dir/status"
	     -o Dir::Cache="$dir/cache")
}

# release_apt CACHE DEBARCH SUITE...: private_apt for the lists of
# DEBARCH and the host's architecture (a foreign kernel's kbuild tools are
# the host's) in CACHE/apt-SUITE-DEBARCH, shared by tests/vm/fetch and
# tests/sysroot.  One architecture a directory: an index of one that
# cannot be read (a mirror in sync) leaves the others' lists whole.
release_apt() {
	local cache=$1 debarch=$2 arches

	shift 2
	arches=$(dpkg --print-architecture)
	[ "$debarch" = "$arches" ] || arches=$arches,$debarch
	private_apt "$cache/apt-$1-$debarch" "$arches" "$@"
}

# depends PACKAGE: the "Depends:" of its candidate (with apt's options
# in apt), one package name a line (first of alternatives, versions
# dropped).
depends() {
	apt-cache "${apt[@]}" show --no-all-versions "$1" 2>/dev/null |
		sed -n 's/^Depends: //p' | tr ',' '\n' |
		sed 's/|.*//; s/(.*)//; s/ //g'
}

# apt_download DIR PACKAGE...: the packages (with apt's options in apt)
# unpacked into DIR.  apt-get's own message says what failed.
apt_download() {
	local dir=$1 debs=$1.debs deb

	shift
	rm -rf "$debs"
	mkdir -p "$debs"
	(cd "$debs" && apt-get "${apt[@]}" download "$@" >/dev/null) || return
	for deb in "$debs"/*.deb; do
		dpkg -x "$deb" "$dir" || return
	done
	rm -rf "$debs"
}
