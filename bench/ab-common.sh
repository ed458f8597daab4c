# Pieces shared by the A/B scripts of GPU builds (bench/gpu-search-ab.sh, bench/gpu-replay-ab.sh);
# sourced, not run.

# variants=(...): VARIANTS split at ';', each entry trimmed, empty ones dropped.
read_variants() {
    variants=()
    local parts v
    IFS=';' read -r -a parts <<<"$VARIANTS"
    for v in "${parts[@]}"; do
        read -r v <<<"$v" # trims the spaces around it
        [[ -n "$v" ]] && variants+=("$v")
    done
    return 0
}
