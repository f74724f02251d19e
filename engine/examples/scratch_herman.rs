use pegchain_engine::explicit::{Builder, questions};
use rug::Rational;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let t0 = std::time::Instant::now();
    let mut lines = text.lines();
    let mut n = 0u64;
    while let Some(l) = lines.next() {
        if l.trim() == "@nr_states" {
            n = lines.next().unwrap().trim().parse().unwrap();
        }
        if l.trim() == "@model" {
            break;
        }
    }
    let mut b = Builder::new(n).unwrap();
    let mut cur = 0u64;
    let mut stable = vec![false; n as usize];
    for l in lines {
        let t = l.trim();
        if let Some(rest) = t.strip_prefix("state ") {
            let mut parts = rest.split_whitespace();
            cur = parts.next().unwrap().parse().unwrap();
            for p in parts {
                if p == "init" {
                    b.initial(cur).unwrap();
                }
                if p == "stable" {
                    stable[cur as usize] = true;
                }
            }
        } else if t.starts_with("action") {
        } else if let Some((to, p)) = t.split_once(" : ") {
            b.transition(cur, to.parse().unwrap(), p.parse::<Rational>().unwrap()).unwrap();
        }
    }
    let chain = b.finish().unwrap();
    eprintln!("read {} states {} transitions in {:?}", chain.states(), chain.transitions(), t0.elapsed());
    let t1 = std::time::Instant::now();
    let ones = vec![Rational::from(1); chain.states()];
    let e = questions::expected_reward(&chain, &stable, &ones, &pegchain_engine::Cancel::new()).unwrap();
    let max = e.iter().flatten().max().unwrap();
    eprintln!("solved in {:?}: state0 {} max {}", t1.elapsed(), e[0].as_ref().unwrap(), max);
}
