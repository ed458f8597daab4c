//! GPU perft against the suites, on every OpenCL/CUDA device present (PoCL in CI). Under
//! `CI=true` a missing device fails instead of passing with a note.

use kogge_chess::epd::{Epd, parse_file};
use kogge_chess::{Board, testdata};
use kogge_gpu::Device;
use kogge_gpu_perft::{GpuPerft, PerftOptions};

/// Every device there is (`kogge_gpu::testing`: PoCL where there is no GPU, required in CI).
fn devices() -> Vec<Device> {
    kogge_gpu::testing::open_devices("GPU perft")
}

/// GPU perft on (a fresh handle to) `device` whose staged tail shares parents' work with their
/// children (kernels/child_share.h) or not, whatever the root's material.
fn perft_sharing(device: &Device, share: bool) -> GpuPerft {
    let d = Device::open(device.info()).expect("device reopens");
    let options = PerftOptions {
        share_children: Some(share),
        ..PerftOptions::for_device(&d)
    };
    GpuPerft::new(d, options).expect("perft kernels build")
}

/// Every count up to `max_nodes` of every position in `file` (each `stride`-th position), with
/// the given options; returns the number of counts checked.
fn check_suite(gpu: &mut GpuPerft, file: &str, stride: usize, max_nodes: u64) -> usize {
    let text = testdata::read(file);
    let entries: Vec<Epd> = parse_file(&text)
        .into_iter()
        .map(|(line, r)| r.unwrap_or_else(|e| panic!("{file}:{line}: {e}")))
        .collect();
    let mut checked = 0;
    let mut failures = Vec::new();
    for epd in entries.iter().step_by(stride) {
        for (depth, expected) in epd.perft_counts() {
            if expected > max_nodes {
                continue;
            }
            let got = gpu.perft(&epd.board, depth).expect("GPU perft runs");
            checked += 1;
            if got != expected {
                failures.push(format!(
                    "{} depth {depth}: expected {expected}, got {got}",
                    epd.board.to_fen()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures on {}:\n{}",
        failures.len(),
        gpu.device().info().name,
        failures.join("\n")
    );
    checked
}

#[test]
fn suites_match_on_every_device() {
    for device in devices() {
        let name = device.info().name.clone();
        // The staged tail with and without the work parents share with their children
        // (kernels/child_share.h), each on every position whatever its material.
        for share in [true, false] {
            let mut gpu = perft_sharing(&device, share);
            // Every position of the standard and Chess960 suites and every other random
            // one, to counts that take PoCL on two cores about a minute each way.
            let n = check_suite(&mut gpu, "perft-suite.epd", 1, 5_000_000)
                + check_suite(&mut gpu, "perft-chess960.epd", 1, 2_000_000)
                + check_suite(&mut gpu, "perft-random.epd", 2, 2_000_000);
            eprintln!("{name}, sharing {share}: {n} counts checked");
            assert!(n > 5000, "only {n} counts checked");
        }
    }
}

#[test]
fn rook_endings_and_their_promotions_match_the_cpu() {
    // The plain tail counts a work-group whose positions hold no knight, bishop or queen, and
    // cannot promote to one, with a copy of the count that has none (quad_rooks_only): rook
    // and pawn endings whose pawns promote at every ply of the last two, and Chess960 castling
    // rooks, against the CPU's counts.
    let fens = [
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/1P4r1/8/8/8/8/1p4R1/4K3 w - - 0 1",
        "8/1P2k3/8/8/8/8/4K1p1/R7 b - - 0 1",
        "r3k3/6P1/8/8/8/8/1p6/4K2R w Kq - 0 1",
        "4k3/8/1P6/8/8/1p6/8/R3K3 w Q - 0 1",
        "1r2k1r1/3p4/8/2P5/8/8/3P2p1/1R2K1R1 b BGbg - 0 1",
    ];
    for device in devices() {
        let mut gpu = perft_sharing(&device, false);
        for fen in fens {
            let board = Board::from_fen(fen).unwrap();
            for depth in 2..=4 {
                assert_eq!(
                    gpu.perft(&board, depth).unwrap(),
                    kogge_chess::perft::perft(&board, depth),
                    "{fen} depth {depth}"
                );
            }
        }
    }
}

#[test]
fn every_leaf_depth_and_tiny_ply_buffers_agree() {
    // Kiwipete to depth 4 (4,085,603) with 1, 2 and 3 fused plies, and with ply buffers so small
    // that every ply is split into many chunks.
    let kiwipete =
        Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    for device in devices() {
        for leaf_depth in 1..=3 {
            for positions_per_ply in [256, 1 << 16] {
                let d = Device::open(device.info()).expect("device reopens");
                let options = PerftOptions {
                    leaf_depth,
                    positions_per_ply,
                    hash_bytes: 0,
                    list_positions: None,
                    memory_limit: None,
                    fingerprint_bits: 64,
                    share_children: None,
                };
                let mut gpu = GpuPerft::new(d, options).expect("perft kernels build");
                assert_eq!(
                    gpu.perft(&kiwipete, 3).unwrap(),
                    97_862,
                    "leaf {leaf_depth}, ply {positions_per_ply}"
                );
                if leaf_depth > 1 {
                    assert_eq!(
                        gpu.perft(&kiwipete, 4).unwrap(),
                        4_085_603,
                        "leaf {leaf_depth}, ply {positions_per_ply}"
                    );
                }
                let divide = gpu.divide(&kiwipete, 2, &|_, _| {}).unwrap();
                assert_eq!(divide.len(), 48);
                assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 2039);
            }
        }
    }
}

#[test]
fn merging_transpositions_keeps_counts_exact() {
    // Under the table every ply is merged into distinct positions with path counts. Table sizes:
    // 128 slots (plies split into many key ranges, some of which run full and are split again),
    // 8,192 and 2^17; with 64-bit fingerprints and with 6-bit ones (8,192 and 1,000 slots, not a
    // power of two), under which most positions share their fingerprint with others in their
    // walk, so that equal fingerprints must be told apart by the positions; lists of distinct positions
    // as memory allows, of one key range (Some(0)) or a few ranges, so that a ply is counted on
    // in several lists. Each run twice, so the second starts from the table the first left.
    let kiwipete =
        Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let start = Board::startpos();
    let pos3 = Board::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1").unwrap();
    for device in devices() {
        // The last case leaves the lists 8 kB beside the table: the table shrinks to make room.
        for (hash_bytes, fingerprint_bits, list_positions, memory_limit) in [
            (48 << 7, 64, None, None),
            (48 << 13, 64, None, None),
            (48 << 13, 64, Some(0), None),
            (48 << 13, 64, Some(20_000), None),
            (48 << 17, 64, None, None),
            (48 << 13, 6, None, None),
            (48 * 1000, 6, Some(3_000), None),
            (48 << 17, 64, None, Some((48 << 17) + (8 << 10))),
        ] {
            let d = Device::open(device.info()).expect("device reopens");
            let options = PerftOptions {
                hash_bytes,
                fingerprint_bits,
                list_positions,
                memory_limit,
                ..PerftOptions::for_device(&d)
            };
            let mut gpu = GpuPerft::new(d, options).expect("perft kernels build");
            assert_eq!(gpu.hash_entries(), hash_bytes as u64 / 48);
            let what = format!(
                "hash {hash_bytes}, fingerprint bits {fingerprint_bits}, list {list_positions:?}, \
                 memory {memory_limit:?}"
            );
            for _ in 0..2 {
                assert_eq!(gpu.perft(&kiwipete, 4).unwrap(), 4_085_603, "{what}");
                assert_eq!(gpu.perft(&start, 5).unwrap(), 4_865_609, "{what}");
                assert_eq!(gpu.perft(&pos3, 6).unwrap(), 11_030_083, "{what}");
            }
            for depth in 0..=3 {
                let cpu = kogge_chess::perft::perft(&kiwipete, depth);
                assert_eq!(
                    gpu.perft(&kiwipete, depth).unwrap(),
                    cpu,
                    "{what}, depth {depth}"
                );
            }
        }
    }
}

#[test]
fn merged_suites_match() {
    // The suites under the table too (a small one, so that the deeper plies are split), to
    // smaller counts than without.
    for device in devices() {
        let name = device.info().name.clone();
        let options = PerftOptions {
            hash_bytes: 48 << 14,
            ..PerftOptions::for_device(&device)
        };
        let mut gpu = GpuPerft::new(device, options).expect("perft kernels build");
        let n = check_suite(&mut gpu, "perft-suite.epd", 1, 1_000_000)
            + check_suite(&mut gpu, "perft-chess960.epd", 4, 500_000)
            + check_suite(&mut gpu, "perft-random.epd", 16, 500_000);
        eprintln!("{name}: {n} counts checked under the table");
        assert!(n > 1000, "only {n} counts checked");
    }
}
