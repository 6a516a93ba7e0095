# The man page PAGE(1), kit's or an applet's, from README and the applets'
# sources (make man; POSIX awk, mawk too):
#
#   awk -v page=PAGE -v version=VERSION -v date=YYYY-MM-DD \
#       -f applets/core/manpage.awk applets/*.c README >PAGE.1
#
# README is kit's manual and each page is a cut of it, so that what a
# user reads is written once.  It sits in core/ because the core owns
# what the pages are made of besides README: the applet table
# (KIT_APPLET's name and one-line summary, NAME here) and --help, whose
# synopses tests/core.t holds README's to.  The build compiles core/*.c
# only: this file is the build's, never linked.
#
# Which parts of README make PAGE (a part is a section: a title line
# underlined with dashes, up to the next):
#   kit      the text under README's title, then "The multicall core"
#   APPLET   each section whose title names APPLET ("tcpiter and
#            udpiter", "Booting an old initrd on a new kernel"), or whose
#            synopsis is APPLET's: its first line "  APPLET ...", as
#            tests/core.t finds it ("The boot-status LED" is mcled's)
# NAME      PAGE and its KIT_APPLET summary (kit's: README's first
#           sentence)
# SYNOPSIS  in each part, the first indented block that has a line
#           "  PAGE ...": those lines of it, with the lines indented
#           under them; another program's lines stay out (udpiter's of
#           tcpiter's block).  The block leaves the part's text.
# DESCRIPTION  the parts, line by line, the first without its title,
#           the others under .SS TITLE:
#   indented lines (tables, examples, options)     .nf, as they are, .fi
#   "- " and the lines indented by 2 under it      .IP \(bu 2
#   other lines: paragraphs (.PP after a blank line), filled; a
#   paragraph's run-in head ("Loading.  The program ...", at most five
#   words) in bold
# SEE ALSO  kit(1) and every applet's page
# Escapes: \ is \e; a line that would start with . or ' starts with \&;
# a - is \- (the minus, what a user types) in indented blocks and where
# it starts a word in text (-l, --help, -1), a hyphen elsewhere.

FILENAME ~ /\.c$/ {
	if ($0 ~ /^KIT_APPLET\(/) {
		name = $0
		sub(/^KIT_APPLET\( */, "", name)
		sub(/[ ,].*/, "", name)
		s = $0
		sub(/^[^"]*"/, "", s)
		sub(/",.*/, "", s)
		summary[name] = s
		isprog[name] = 1
		progs[++nprogs] = name
	}
	next
}

{ sub(/\r$/, ""); line[++n] = $0 }

function die(msg) {
	print "manpage.awk: " page ": " msg > "/dev/stderr"
	failed = 1
	exit 1
}

# esc(S, BLOCK): S in roff; BLOCK: every - is \-.
function esc(s, block,    out, i, c, prev, dash) {
	out = ""
	prev = " "
	dash = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\") {
			out = out "\\e"
		} else if (c == "-" && (block || dash || index(" ([{|'\"`=", prev))) {
			out = out "\\-"
			dash = 1
			prev = c
			continue
		} else {
			out = out c
		}
		dash = 0
		prev = c
	}
	if (out ~ /^[.']/)
		out = "\\&" out
	return out
}

# The first line of a paragraph, its run-in head in bold.
function head(s,    p, phrase, w) {
	p = index(s, ".  ")
	if (p > 1) {
		phrase = substr(s, 1, p)
		if (split(phrase, w, " ") <= 5 && phrase !~ /^[ \-]/)
			return "\\fB" esc(phrase, 0) "\\fR" esc(substr(s, p + 1), 0)
	}
	return esc(s, 0)
}

# The words of a title, lower case, between spaces.
function words(t) {
	t = " " tolower(t) " "
	gsub(/[^a-z0-9_]+/, " ", t)
	return t
}

# synprog(K): the program whose synopsis section K has (tests/core.t's
# rule), or "".
function synprog(k,    j, f) {
	for (j = start[k]; j <= end[k]; j++) {
		if (line[j] ~ /^  [a-z]/) {
			split(line[j], f, " ")
			if (f[1] in isprog && f[1] != "kit")
				return f[1]
		}
	}
	return ""
}

# synopsis(K): takes PAGE's lines of the first block of part K that has
# one into syn[], and marks the whole block as no part of the text.
function synopsis(k,    j, b, e, has, keep, f) {
	for (j = start[k]; j <= end[k]; j++) {
		if (line[j] !~ /^ /)
			continue
		b = j
		has = 0
		for (e = j; e <= end[k] && line[e] ~ /^ /; e++)
			if (line[e] ~ ("^  " page "( |$)"))
				has = 1
		e--
		if (!has) {
			j = e
			continue
		}
		if (nsyn)
			syn[++nsyn] = ".sp"
		keep = 0
		for (j = b; j <= e; j++) {
			skip[j] = 1
			if (line[j] ~ /^  [^ ]/) {
				split(line[j], f, " ")
				keep = f[1] == page || !(f[1] in isprog)
			}
			if (keep)
				syn[++nsyn] = esc(substr(line[j], 3), 1)
		}
		return
	}
}

# pp(): a new paragraph, but right under a heading, which starts one.
function pp() {
	if (!heading)
		print ".PP"
	heading = 0
}

# part(K, FIRST): part K as roff, under .SS TITLE unless FIRST.
function part(k, first,    j, s, state) {
	if (!first)
		print ".SS \"" esc(title[k], 0) "\""
	heading = 1
	state = ""
	for (j = start[k]; j <= end[k]; j++) {
		if (skip[j])
			continue
		s = line[j]
		if (s ~ /^[ \t]*$/) {
			if (state == "block")
				print ".fi"
			state = ""
		} else if (s ~ /^ / && state == "item" && s ~ /^  [^ ]/) {
			print esc(substr(s, 3), 0)
		} else if (s ~ /^ /) {
			if (state != "block") {
				if (state == "")
					pp()
				print ".nf"
				state = "block"
			}
			print esc(s, 1)
			heading = 0
		} else if (s ~ /^- /) {
			if (state == "block")
				print ".fi"
			print ".IP \\(bu 2"
			heading = 0
			print esc(substr(s, 3), 0)
			state = "item"
		} else if (state == "block") {
			print ".fi"
			print esc(s, 0)
			state = "text"
		} else if (state == "text") {
			print esc(s, 0)
		} else {
			pp()
			print head(s)
			state = "text"
		}
	}
	if (state == "block")
		print ".fi"
}

END {
	if (failed)
		exit 1
	if (page == "")
		die("no page given (awk -v page=NAME)")
	isprog["kit"] = 1
	# The sections; section 0 is the text under README's title.
	nsec = 0
	start[0] = 1
	for (i = 1; i < n; i++) {
		if (line[i] != "" && line[i] !~ /^[ \t]/ &&
		    line[i + 1] ~ /^(-+|=+)$/ &&
		    length(line[i + 1]) == length(line[i])) {
			end[nsec] = i - 1
			if (line[i + 1] ~ /^=/) {
				start[0] = i + 2
				continue
			}
			nsec++
			title[nsec] = line[i]
			start[nsec] = i + 2
		}
	}
	end[nsec] = n

	nparts = 0
	for (k = 0; k <= nsec; k++) {
		if (page == "kit")
			take = k == 0 || title[k] == "The multicall core"
		else
			take = k > 0 && (index(words(title[k]), " " page " ") ||
			    synprog(k) == page)
		if (take)
			parts[++nparts] = k
	}
	if (page == "kit") {
		s = ""
		for (j = start[0]; j <= end[0] && (line[j] != "" || s == ""); j++)
			s = s " " line[j]
		sub(/^ +/, "", s)
		sub(/\.  .*/, "", s)
		summary["kit"] = tolower(substr(s, 1, 1)) substr(s, 2)
	} else if (!(page in summary)) {
		die("no KIT_APPLET(" page ", ...) in the sources given")
	}
	if (nparts < (page == "kit" ? 2 : 1))
		die("README has no section for it")
	nsyn = 0
	for (p = 1; p <= nparts; p++)
		synopsis(parts[p])
	if (!nsyn)
		die("README has no synopsis for it (a line \"  " page " ...\")")

	# The first line: make install and uninstall know kit's pages by it.
	print ".\\\" " page "(1), made by applets/core/manpage.awk from kit's README: edit README."
	print ".TH " toupper(page) " 1 " date " \"kit " version "\" \"kit manual\""
	# Identifiers (multi_intensity, brightness_store()) unbroken, and
	# README's own spacing kept: no hyphenation, no justification.
	print ".nh"
	print ".ad l"
	print ".SH NAME"
	print page " \\- " esc(summary[page], 0)
	print ".SH SYNOPSIS"
	print ".nf"
	for (j = 1; j <= nsyn; j++)
		print syn[j]
	print ".fi"
	print ".SH DESCRIPTION"
	for (p = 1; p <= nparts; p++)
		part(parts[p], p == 1)
	print ".SH SEE ALSO"
	see = page == "kit" ? "" : "kit"
	for (j = 1; j <= nprogs; j++)
		if (progs[j] != page)
			see = see (see == "" ? "" : " ") progs[j]
	k = split(see, f, " ")
	for (j = 1; j <= k; j++)
		print ".BR " f[j] " (1)" (j < k ? "," : "")
}
