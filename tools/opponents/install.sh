#!/usr/bin/env bash
# Installs Debian's chess engines as sparring opponents for tools/match/match.py and prints the
# command path of each. A package this Debian release lacks, or that fails to install, is named
# at the end and skipped: one missing opponent should not stop matches against the others.
# Debian puts these binaries under /usr/games, which is often not on root's or CI's PATH, so the
# paths printed are absolute. docs/STRENGTH.md says which protocol and command line each needs.
#
# Usage: bash tools/opponents/install.sh       (as root, or with sudo)
set -uo pipefail

# Debian packages; each installs a binary of the same name.
packages=(stockfish ethereal-chess toga2 glaurung gnuchess phalanx sjeng hoichess fairymax)

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive

missing=()
for package in "${packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done

if ((${#missing[@]} > 0)); then
    if ! command -v apt-get >/dev/null; then
        echo "no apt-get here: cannot install ${missing[*]}" >&2
    else
        "${sudo[@]}" apt-get update -qq
        # One package at a time: apt-get refuses the whole list if a single name is unknown.
        for package in "${missing[@]}"; do
            # Not `| grep -q`: grep stopping early kills apt-cache with SIGPIPE under pipefail.
            candidate=$(apt-cache policy "$package" 2>/dev/null | sed -n 's/^ *Candidate: //p')
            if [ -z "$candidate" ] || [ "$candidate" = "(none)" ]; then
                continue
            fi
            # apt's own chatter (debconf notices) only when the install fails.
            if ! log=$("${sudo[@]}" apt-get install -y -qq --no-install-recommends "$package" 2>&1)
            then
                echo "$log" >&2
            fi
        done
    fi
fi

not_installed=()
for package in "${packages[@]}"; do
    path=""
    for candidate in "/usr/games/$package" "/usr/bin/$package"; do
        if [ -x "$candidate" ]; then
            path=$candidate
            break
        fi
    done
    if [ -z "$path" ]; then
        path=$(command -v "$package" 2>/dev/null || true)
    fi
    if [ -n "$path" ]; then
        printf '%-16s %s\n' "$package" "$path"
    else
        not_installed+=("$package")
    fi
done

if ((${#not_installed[@]} > 0)); then
    echo "not installed: ${not_installed[*]}"
fi
