/* lookup.h: attacks by table lookup, with the CPU's own tables (crates/chess/build.rs: "fancy"
 * magics, leaper tables) uploaded by the host, and the move count of perft's last ply built on
 * them. Needs board.h and movegen.h before it.
 *
 * Why a second way to attack when board.h has the Kogge-Stone fills: the fills are pure integer
 * logic, and the last ply of perft is bound by the integer pipe (Nsight Compute on the H100: the
 * ALU pipe 78% busy, the load pipe 9%). A magic lookup is a few logic operations, one multiply
 * (the FMA pipe) and loads, so it moves most of that work to pipes that were idle.
 *
 * The host passes two arrays (gpu-perft's lookup tables):
 *   params : LOOKUP_WORDS words: for entry e in 0..127 (rooks on squares 0..63, then bishops)
 *            mask, magic, (offset | (shift - 32) << 32), 0 at 4 * e; knight attacks at
 *            LOOKUP_KNIGHT + square; king attacks at LOOKUP_KING + square; rook and bishop
 *            attacks on the empty board at LOOKUP_ROOK_RAYS and LOOKUP_BISHOP_RAYS + square;
 *            a pawn's captures from a square at LOOKUP_PAWN + 64 * colour + square; castling
 *            paths at LOOKUP_CASTLE + 8 * king file + rook file (castle_paths_at).
 *            Every shift is at least 32 (no square has more than 12 relevant bits), so the index
 *            is the high word of the product shifted: 32-bit arithmetic after one multiply.
 *   attacks: the rook blocks, then the bishop blocks (bishop offsets already count the rooks).
 * A kernel copies params into local memory first (lookup_load): the lanes of a warp index it by
 * unrelated squares, gathers that local memory serves faster than the L1 cache. */

#define LOOKUP_KNIGHT 512u
#define LOOKUP_KING 576u
#define LOOKUP_ROOK_RAYS 640u
#define LOOKUP_BISHOP_RAYS 704u
#define LOOKUP_PAWN 768u
#define LOOKUP_CASTLE 896u
#define LOOKUP_WORDS 960u

typedef struct {
    LOCAL_PTR const u64 *params;
    const GLOBAL u64 *attacks;
} Lookup;

/* Copies the parameters to local memory (every thread of the group calls it). */
DEVICE_FN void lookup_load(LOCAL_PTR u64 *local_params, const GLOBAL u64 *params) {
    for (u32 i = LOCAL_ID(); i < LOOKUP_WORDS; i += LOCAL_SIZE()) local_params[i] = params[i];
    BARRIER();
}

DEVICE_FN u64 slider_lookup(const Lookup *t, u32 entry, u64 occ) {
    LOCAL_PTR const u64 *e = t->params + 4u * entry;
    u32 high = (u32)(((occ & e[0]) * e[1]) >> 32);
    u64 place = e[2];
    return t->attacks[(u32)place + (high >> (u32)(place >> 32))];
}

/* Runs `body` with `sq` bound to each square of `set`, lowest first. One loop over the whole
 * set: a loop per 32-bit half had the lanes of a warp whose pieces stood in different halves
 * take turns (position 3's rooks: 17 of 32 lanes active in the lookups). */
#define FOR_EACH_SQUARE(sq, set, body)                                                          \
    for (u64 set_ = (set); set_; set_ &= set_ - 1) {                                            \
        u32 sq = lsb(set_);                                                                     \
        body                                                                                    \
    }
DEVICE_FN u64 rook_at(const Lookup *t, u32 sq, u64 occ) { return slider_lookup(t, sq, occ); }
DEVICE_FN u64 bishop_at(const Lookup *t, u32 sq, u64 occ) { return slider_lookup(t, 64u + sq, occ); }
DEVICE_FN u64 knight_at(const Lookup *t, u32 sq) { return t->params[LOOKUP_KNIGHT + sq]; }
DEVICE_FN u64 king_at(const Lookup *t, u32 sq) { return t->params[LOOKUP_KING + sq]; }
DEVICE_FN u64 rook_rays(const Lookup *t, u32 sq) { return t->params[LOOKUP_ROOK_RAYS + sq]; }
DEVICE_FN u64 bishop_rays(const Lookup *t, u32 sq) { return t->params[LOOKUP_BISHOP_RAYS + sq]; }
/* The squares a pawn of `colour` on `sq` takes on: one load where pawn_attacks() on a single
 * square takes a variable shift and four constant ones. */
DEVICE_FN u64 pawn_at(const Lookup *t, u32 colour, u32 sq) { return t->params[LOOKUP_PAWN + 64u * colour + sq]; }
/* A castling with the king on file `king_file` and the rook on `rook_file`, as files of the
 * back rank (Chess960 rules: the king ends on the g or c file, the rook on the f or d file):
 * bits 0-7 the king's path (the files it crosses and ends on, whose safety is tested), bits
 * 8-15 the files that must be empty (every file either piece crosses or ends on, but the two
 * pieces' own). The host computes the 64 entries (crates/gpu-perft's lookup_tables). */
DEVICE_FN u32 castle_paths_at(const Lookup *t, u32 king_file, u32 rook_file) {
    return (u32)t->params[LOOKUP_CASTLE + 8u * king_file + rook_file];
}

/* The piece sets a move count reads, whatever form the position came in (a Board here, perft's
 * quad-bitboards in quad_board.h), so that one count serves both. Piece sets hold both colours;
 * diag = bishops and queens, orth = rooks and queens. */
typedef struct {
    u64 pawns, knights, diag, orth, kings;
    u64 us, them;
    u32 side;
} PieceSets;

DEVICE_FN void sets_of_board(const Board *b, PieceSets *s) {
    s->pawns = b->pieces[PAWN];
    s->knights = b->pieces[KNIGHT];
    s->diag = b->pieces[BISHOP] | b->pieces[QUEEN];
    s->orth = b->pieces[ROOK] | b->pieces[QUEEN];
    s->kings = b->pieces[KING];
    s->us = color_set(b, b->side);
    s->them = color_set(b, b->side ^ 1u);
    s->side = b->side;
}

/* Every square the side not to move attacks, with `occ` as the blockers (attacked_squares by
 * lookup). Taking two sliders per loop iteration, so that their chains of dependent loads
 * overlap, was measured slower on the H100: the bookkeeping cost more instructions (12% more)
 * than the overlap saved. */
DEVICE_FN u64 enemy_attacks_lookup(const PieceSets *s, const Lookup *t, u64 occ) {
    u64 them = s->them;
    u64 a = pawn_attacks(s->side ^ 1u, s->pawns & them) | king_at(t, lsb(s->kings & them));
    FOR_EACH_SQUARE(sq, s->knights & them, a |= knight_at(t, sq);)
    FOR_EACH_SQUARE(sq, s->orth & them, a |= rook_at(t, sq, occ);)
    FOR_EACH_SQUARE(sq, s->diag & them, a |= bishop_at(t, sq, occ);)
    return a;
}

/* prepare() by lookup, all but the enemy's attack map: the sides, checkers, check mask, pins,
 * and in king_to the king's candidate squares (not yet filtered by the attack map, which the
 * caller makes if it needs it: finish_king_moves). Rays between two squares on one line come
 * out as the intersection of the two squares' attacks along that kind of line (nothing else of
 * the two attack sets meets: the crossings are the two squares themselves, which attack sets
 * leave out). Pinners are the enemy sliders seen from the king once our first blockers are taken
 * away. */
DEVICE_FN void prepare_sets(const PieceSets *s, const Lookup *t, Masks *m) {
    m->us = s->us;
    m->them = s->them;
    m->occ = s->us | s->them;
    m->empty = ~m->occ;
    m->king = s->kings & s->us;
    u32 ksq = lsb(m->king);
    u64 orth = s->orth & m->them;
    u64 diag = s->diag & m->them;

    u64 rk = rook_at(t, ksq, m->occ), bk = bishop_at(t, ksq, m->occ);
    u64 checkers = (knight_at(t, ksq) & s->knights & m->them) |
                   (pawn_at(t, s->side, ksq) & s->pawns & m->them) | (rk & orth) | (bk & diag);
    m->checks = popc(checkers);
    m->checkmask = ~0UL;
    if (m->checks == 1) {
        u32 c = lsb(checkers);
        m->checkmask = checkers;
        if (checkers & rk & orth) m->checkmask |= rk & rook_at(t, c, m->occ);
        else if (checkers & bk & diag) m->checkmask |= bk & bishop_at(t, c, m->occ);
    }

    m->pin_hv = 0;
    m->pin_diag = 0;
    if (rook_rays(t, ksq) & orth) {
        u64 occ_x = m->occ ^ (rk & m->us);
        u64 xr = rook_at(t, ksq, occ_x);
        for (u64 p = xr & ~rk & orth; p; p &= p - 1) {
            u32 sq = lsb(p);
            m->pin_hv |= (xr & rook_at(t, sq, occ_x)) | bit(sq);
        }
    }
    if (bishop_rays(t, ksq) & diag) {
        u64 occ_x = m->occ ^ (bk & m->us);
        u64 xb = bishop_at(t, ksq, occ_x);
        for (u64 p = xb & ~bk & diag; p; p &= p - 1) {
            u32 sq = lsb(p);
            m->pin_diag |= (xb & bishop_at(t, sq, occ_x)) | bit(sq);
        }
    }
    m->king_to = king_at(t, ksq) & ~m->us;
    m->has_danger = 0;
    m->danger = 0;
}

/* The rest of prepare(): the enemy's attacks with the king lifted, if the king has a square to
 * go to or castling needs them (`castling_possible`), and the king's safe squares. Testing each
 * of the king's squares on its own instead measured slower on the H100 (position 3 perft 10:
 * 6.09 s against 4.58 s): endgame kings have many squares to test and few enemies to look up. */
DEVICE_FN void finish_king_moves(const PieceSets *s, const Lookup *t, Masks *m, int castling_possible) {
    m->has_danger = m->king_to != 0 || castling_possible;
    m->danger = m->has_danger ? enemy_attacks_lookup(s, t, m->occ ^ m->king) : 0;
    m->king_to &= ~m->danger;
}

/* The king's candidate squares (m->king_to) that the enemy does not attack, each tested on its
 * own: two lookups per square, where the attack map takes one per enemy slider. */
DEVICE_FN u64 safe_king_squares(const PieceSets *s, const Lookup *t, const Masks *m) {
    u64 occ = m->occ ^ m->king;
    u64 orth = s->orth & m->them, diag = s->diag & m->them;
    u64 leapers = (s->knights | s->pawns | s->kings) & m->them;
    u64 safe = 0;
    FOR_EACH_SQUARE(sq, m->king_to, {
        u64 near = (knight_at(t, sq) & s->knights) | (pawn_at(t, s->side, sq) & s->pawns) | (king_at(t, sq) & s->kings);
        u64 attackers = (near & leapers) | (rook_at(t, sq, occ) & orth) | (bishop_at(t, sq, occ) & diag);
        safe |= attackers ? 0 : bit(sq);
    })
    return safe;
}

/* finish_king_moves() where the whole warp can do with fewer lookups: when on every lane the
 * king has at most half as many squares as the enemy has slider lookups (a queen counts
 * twice), and no castling needs the map, the squares are tested one by one
 * (safe_king_squares); otherwise every lane makes the map. The choice is the warp's, by vote,
 * so that its lanes never split between the two; without votes, the map for all (a choice per
 * lane measured slower on the H100: Kiwipete and position 3 4%). */
DEVICE_FN void finish_king_moves_voted(const PieceSets *s, const Lookup *t, Masks *m, int castling_possible) {
    u32 sliders = popc(s->orth & m->them) + popc(s->diag & m->them);
    int few = !castling_possible && 2u * popc(m->king_to) <= sliders;
    if (WARP_VOTES && ALL_IN_WARP(few)) {
        m->king_to = safe_king_squares(s, t, m);
        m->has_danger = 0;
        m->danger = 0;
    } else {
        finish_king_moves(s, t, m, castling_possible);
    }
}

/* prepare() by lookup: the same Masks. */
DEVICE_FN void prepare_lookup(const Board *b, const Lookup *t, PieceSets *s, Masks *m) {
    sets_of_board(b, s);
    prepare_sets(s, t, m);
    u32 slot = 2u * b->side;
    finish_king_moves(s, t, m,
                      m->checks == 0 && (castle_path_clear(b, m, slot) | castle_path_clear(b, m, slot + 1)));
}

/* The legal destinations of our rook (or queen, as a rook) and our bishop (or queen, as a bishop)
 * on `sq`, among `target`: a pinned slider keeps to its pin ray; the others may go anywhere (limit
 * all ones). The caller has left out the sliders pinned along the other kind of line. */
DEVICE_FN u64 rook_moves_lookup(const Lookup *t, const Masks *m, u32 sq, u64 target) {
    return rook_at(t, sq, m->occ) & target & ((bit(sq) & m->pin_hv) ? m->pin_hv : ~0UL);
}
DEVICE_FN u64 bishop_moves_lookup(const Lookup *t, const Masks *m, u32 sq, u64 target) {
    return bishop_at(t, sq, m->occ) & target & ((bit(sq) & m->pin_diag) ? m->pin_diag : ~0UL);
}

/* The legal moves of our knights, rooks, bishops and queens, one lookup per piece: the part of
 * a count by lookup that every position form shares; *seen gets every square the counted sliders
 * attack (a change on none of them leaves their moves as they were: child_share.h). Not called
 * in double check. */
DEVICE_FN u32 count_piece_moves_seen(const PieceSets *s, const Lookup *t, const Masks *m, u64 *seen) {
    u32 n = 0;
    u64 target = ~m->us & m->checkmask;
    u64 pinned = m->pin_hv | m->pin_diag;
    u64 a_seen = 0;
    FOR_EACH_SQUARE(sq, s->knights & m->us & ~pinned, n += popc(knight_at(t, sq) & target);)
    FOR_EACH_SQUARE(sq, s->orth & m->us & ~m->pin_diag, {
        u64 a = rook_at(t, sq, m->occ);
        a_seen |= a;
        n += popc(a & target & ((bit(sq) & m->pin_hv) ? m->pin_hv : ~0UL));
    })
    FOR_EACH_SQUARE(sq, s->diag & m->us & ~m->pin_hv, {
        u64 a = bishop_at(t, sq, m->occ);
        a_seen |= a;
        n += popc(a & target & ((bit(sq) & m->pin_diag) ? m->pin_diag : ~0UL));
    })
    *seen = a_seen;
    return n;
}

/* count_piece_moves_seen() without the squares (the compiler drops their bookkeeping). */
DEVICE_FN u32 count_piece_moves_lookup(const PieceSets *s, const Lookup *t, const Masks *m) {
    u64 seen;
    return count_piece_moves_seen(s, t, m, &seen);
}

/* count_moves() by lookup: one lookup per slider instead of eight fills per side. */
DEVICE_FN u32 count_moves_lookup(const Board *b, const Lookup *t) {
    PieceSets s;
    Masks m;
    prepare_lookup(b, t, &s, &m);
    u32 n = popc(m.king_to);
    if (m.checks > 1) return n;
    return n + count_piece_moves_lookup(&s, t, &m) + count_pawns_and_specials(b, &m);
}

/* gen_moves() by lookup: the same moves in the same order (movegen.h's pawn and special moves),
 * tagged by `g` unless it is null (movegen.h's MoveTags); returns where they went. */
DEVICE_FN MoveCursor list_moves_lookup(const Board *b, const Lookup *t, Move *list, const MoveTags *g) {
    PieceSets s;
    Masks m;
    prepare_lookup(b, t, &s, &m);
    MoveCursor c = {0, 0};
    push_moves(list, &c, lsb(m.king), m.king_to, g, MOVER_KING);
    if (m.checks > 1) return c;
    u64 target = ~m.us & m.checkmask;
    u64 pinned = m.pin_hv | m.pin_diag;
    FOR_EACH_SQUARE(sq, s.knights & m.us & ~pinned, push_moves(list, &c, sq, knight_at(t, sq) & target, g, MOVER_KNIGHT);)
    FOR_EACH_SQUARE(sq, s.orth & m.us & ~m.pin_diag,
                    push_moves(list, &c, sq, rook_moves_lookup(t, &m, sq, target), g,
                               (bit(sq) & s.diag) ? MOVER_QUEEN : MOVER_ROOK);)
    FOR_EACH_SQUARE(sq, s.diag & m.us & ~m.pin_hv,
                    push_moves(list, &c, sq, bishop_moves_lookup(t, &m, sq, target), g,
                               (bit(sq) & s.orth) ? MOVER_QUEEN : MOVER_BISHOP);)
    push_pawns_and_specials(b, &m, list, &c, g);
    return c;
}

/* Every legal move into `list` (room for MOVE_LIST_SIZE) by lookup; returns how many. */
DEVICE_FN u32 gen_moves_lookup(const Board *b, const Lookup *t, Move *list) {
    return list_moves_lookup(b, t, list, 0).front;
}
