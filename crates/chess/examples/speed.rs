use kogge_chess::{Board, perft::perft_with, sliders::SliderKind};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let fen = args
        .get(1)
        .cloned()
        .unwrap_or(kogge_chess::STARTPOS_FEN.into());
    let depth: u32 = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(6);
    let b = Board::from_fen(&fen).unwrap();
    for k in [SliderKind::Magic, SliderKind::Pext] {
        let t = std::time::Instant::now();
        let n = perft_with(&b, depth, k);
        let s = t.elapsed().as_secs_f64();
        println!("{:?} {n} {:.3}s {:.1} Mnps", k, s, n as f64 / s / 1e6);
    }
}
