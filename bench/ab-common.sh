# Pieces shared by the A/B scripts of GPU builds (bench/gpu-search-ab.sh, bench/gpu-replay-ab.sh,
# bench/depth-quality-ab.sh);
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

# A variant NAME=FIRST[|REST] in its parts: variant_name, variant_first (a binary or kernel
# options, as the script reads it) and variant_rest (UCI options; empty without a '|').
split_variant() {
    variant_name=${1%%=*}
    local spec=${1#*=}
    variant_first=${spec%%|*}
    variant_rest=""
    [[ "$spec" == *"|"* ]] && variant_rest=${spec#*|}
    return 0
}
