//! Published figures of classic chains, each by the explicit solver and by a second method
//! (a closed form, or dense rational elimination of the same equations).

use pegchain::Cancel;
use pegchain::engine::explicit::linear;
use pegchain::engine::explicit::questions::{
    ends, expected_reward, reach_probability, steps_mean_and_variance,
};
use pegchain::engine::explicit::{ExplicitChain, sample};
use pegchain::engine::walk::Walks;
use pegchain::games::{self, GameParams, board, classic};
use rug::Rational;

fn q(n: i64, d: i64) -> Rational {
    Rational::from((n, d))
}

fn label_set(chain: &ExplicitChain, name: &str) -> Vec<bool> {
    chain.label_set(name).unwrap()
}

/// The expected steps to `target` by dense rational elimination of x = 1 + P x over every
/// state outside it: the same equations, solved without the graph analysis, the SCC order
/// or the modular solver.
fn steps_by_elimination(chain: &ExplicitChain, target: &[bool]) -> Vec<Rational> {
    let outside: Vec<u32> = (0..chain.states() as u32).filter(|&s| !target[s as usize]).collect();
    let local = |s: u32| outside.binary_search(&s).ok().map(|i| i as u32);
    let rows: Vec<Vec<(u32, Rational)>> = outside
        .iter()
        .map(|&s| chain.row(s).filter_map(|(t, p)| local(t).map(|j| (j, p.clone()))).collect())
        .collect();
    let rhs = vec![vec![q(1, 1)]; outside.len()];
    linear::eliminate(&rows, &rhs, 1).unwrap().into_iter().map(|mut v| v.remove(0)).collect()
}

#[test]
fn chutes_and_ladders_lasts_the_published_number_of_turns() {
    // Althoen, King and Schilling, Mathematical Gazette 77 (1993).
    let published: Rational = "225837582538403273407117496273279920181931269186581786048583/5757472998140039232950575874628786131130999406013041613400"
        .parse()
        .unwrap();
    let game = games::build("chutes-and-ladders", &GameParams::default()).unwrap();
    let finish = label_set(&game.chain, "finish");
    let turns = game.chain.step_reward("turns").unwrap();
    let solved = expected_reward(&game.chain, &finish, &turns, &Cancel::new()).unwrap();
    assert_eq!(solved[0].as_ref(), Some(&published));
    assert_eq!(steps_by_elimination(&game.chain, &finish)[0], published);
    assert_eq!(format!("{:.4}", published.to_f64()), "39.2251");
    // Every game ends: P(finish) = 1 from every square.
    assert!(reach_probability(&game.chain, &finish, &Cancel::new()).unwrap().iter().all(|p| *p == 1));
}

#[test]
fn the_knuth_yao_die_is_fair_and_takes_eleven_thirds_flips() {
    let chain = classic::knuth_yao();
    for face in ["one", "two", "three", "four", "five", "six"] {
        let p = reach_probability(&chain, &label_set(&chain, face), &Cancel::new()).unwrap();
        assert_eq!(p[0], q(1, 6), "{face}");
    }
    let done = label_set(&chain, "done");
    let flips = expected_reward(&chain, &done, &chain.step_reward("flips").unwrap(), &Cancel::new()).unwrap();
    assert_eq!(flips[0], Some(q(11, 3)));
    // By hand: from s1 (or s2) two flips reach a face, except a quarter of the time when
    // they lead back to s1: E1 = 2 + E1 / 4 = 8/3, and E0 = 1 + E1.
    let e1 = q(2, 1) / q(3, 4);
    assert_eq!(q(1, 1) + e1, q(11, 3));
    assert_eq!(steps_by_elimination(&chain, &done)[0], q(11, 3));
}

#[test]
fn the_gamblers_ruin_matches_its_closed_forms() {
    for (stake, goal, p) in [(3u64, 10u64, q(1, 2)), (5, 12, q(9, 19)), (1, 6, q(2, 3))] {
        let params = GameParams { stake, goal, p: p.clone(), ..GameParams::default() };
        let game = games::build("gamblers-ruin", &params).unwrap();
        let win = reach_probability(&game.chain, &label_set(&game.chain, "win"), &Cancel::new()).unwrap();
        let s = stake as usize;
        let expected = if p == q(1, 2) {
            q(stake as i64, goal as i64)
        } else {
            let r: Rational = (Rational::from(1) - &p) / &p;
            let power = |k: u64| (0..k).fold(q(1, 1), |acc, _| acc * &r);
            (q(1, 1) - power(stake)) / (q(1, 1) - power(goal))
        };
        assert_eq!(win[s], expected, "stake {stake}, goal {goal}, p {p}");
        if p == q(1, 2) {
            let both: Vec<bool> = (0..=goal).map(|i| i == 0 || i == goal).collect();
            let m = steps_mean_and_variance(&game.chain, &both, &Cancel::new()).unwrap();
            assert_eq!(m[s].as_ref().unwrap().0, q((stake * (goal - stake)) as i64, 1));
        }
    }
}

#[test]
fn the_pass_line_wins_244_in_495() {
    let chain = classic::craps();
    let win = reach_probability(&chain, &label_set(&chain, "win"), &Cancel::new()).unwrap();
    assert_eq!(win[0], q(244, 495));
    // Closed form: 8/36 on the come-out, then each point p wins with ways(p) / (ways(p) + 6).
    let ways = |s: i64| 6 - (s - 7).abs();
    let by_hand: Rational =
        [4, 5, 6, 8, 9, 10].iter().map(|&p| q(ways(p), 36) * q(ways(p), ways(p) + 6)).sum::<Rational>()
            + q(8, 36);
    assert_eq!(by_hand, q(244, 495));
    let e = ends(&chain, &Cancel::new()).unwrap();
    assert_eq!(e.bottoms, vec![vec![7], vec![8]]);
    assert_eq!(e.probability, vec![q(244, 495), q(251, 495)]);
}

#[test]
fn two_players_of_a_small_board_win_in_proportions_that_add_to_one() {
    let rules = board::BoardRules::parse("squares 6\nspinner 1-3\novershoot bounce\nchute 5 1\nladder 2 4\n")
        .unwrap();
    let chain = board::players(&rules, 2, 10_000, &pegchain::Cancel::new()).unwrap();
    let one =
        reach_probability(&chain, &label_set(&chain, "player1_wins"), &Cancel::new()).unwrap()[0].clone();
    let two =
        reach_probability(&chain, &label_set(&chain, "player2_wins"), &Cancel::new()).unwrap()[0].clone();
    assert_eq!(Rational::from(&one + &two), 1);
    assert!(one > two, "the first player has the edge: {one} vs {two}");
    // The second method: the sum over k of P(T1 = k) P(T2 >= k) is the first player's
    // chance; its partial sums rise to it and never pass it.
    let single = board::one_player(&rules).unwrap();
    let finish = label_set(&single, "finish");
    let d = pegchain::engine::explicit::questions::steps_distribution(
        &single,
        &finish,
        60,
        &[0],
        None,
        &Cancel::new(),
    )
    .unwrap();
    let cdf: Vec<Rational> = (0..=60).map(|k| d.cumulative(0, k)).collect();
    let partial: Rational =
        (1..cdf.len()).map(|k| Rational::from(&cdf[k] - &cdf[k - 1]) * (q(1, 1) - &cdf[k - 1])).sum();
    assert!(
        partial <= one && Rational::from(&one - &partial) < q(1, 1_000_000),
        "{}",
        Rational::from(&one - &partial).to_f64()
    );
}

/// The chances of a race on the one-player chain, asked through `chains::analyse`.
fn race_of(chain: &ExplicitChain, players: u32) -> pegchain::chains::Race {
    use pegchain::chains::{Question, RaceQuestion, Target, analyse};
    let question = Question {
        target: Some(Target::Label("finish".into())),
        race: Some(RaceQuestion::of(players)),
        ..Question::default()
    };
    analyse(chain, &question, &Cancel::new()).unwrap().race.unwrap().race
}

/// Two to four players of a small board with a chute and a ladder: each player's exact
/// chance from the product chain (its own states and turns, cycles solved exactly) lies
/// between the race's bounds, which are 10^-30 apart or less and share out all the mass.
#[test]
fn races_bracket_the_product_chains_exact_chances() {
    let rules = board::BoardRules::parse("squares 6\nspinner 1-3\novershoot bounce\nchute 5 1\nladder 2 4\n")
        .unwrap();
    let single = board::one_player(&rules).unwrap();
    let gap = Rational::from((1, rug::Integer::from(rug::Integer::u_pow_u(10, 30))));
    for players in 2..=4u32 {
        let product = board::players(&rules, players, 100_000, &pegchain::Cancel::new()).unwrap();
        let race = race_of(&single, players);
        assert_eq!(race.lower.len(), players as usize);
        assert!(race.undecided > 0 && race.undecided <= gap, "{players} players");
        assert_eq!(race.lower.iter().sum::<Rational>() + &race.undecided, 1);
        for (i, lower) in race.lower.iter().enumerate() {
            let label = format!("player{}_wins", i + 1);
            let exact =
                reach_probability(&product, &label_set(&product, &label), &Cancel::new()).unwrap()[0].clone();
            let upper = Rational::from(lower + &race.undecided);
            assert!(*lower <= exact && exact <= upper, "{players} players, player {}", i + 1);
        }
    }
}

/// Three players of the Milton Bradley board (a product chain of 1.6 million states): the
/// race's chances against 400,000 games played here with a seeded generator of its own, one
/// spin a turn, each player within 4.5 standard deviations. The first player has the edge.
#[test]
fn three_players_of_chutes_and_ladders_win_as_games_played_say() {
    let params = GameParams { players: 3, ..GameParams::default() };
    let game = games::build("chutes-and-ladders", &params).unwrap();
    assert_eq!(game.race, Some(3));
    assert_eq!(game.chain.states(), 82, "the one-player chain");
    let race = race_of(&game.chain, 3);
    assert!(race.lower[0] > race.lower[1] && race.lower[1] > race.lower[2]);
    let rules = board::BoardRules::parse(board::CHUTES_AND_LADDERS).unwrap();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut spin = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 6) as u32 + 1
    };
    let games = 400_000u32;
    let mut wins = [0u32; 3];
    for _ in 0..games {
        let mut squares = [0u32; 3];
        'game: loop {
            for (player, square) in squares.iter_mut().enumerate() {
                *square = rules.land(*square, spin());
                if *square == rules.squares {
                    wins[player] += 1;
                    break 'game;
                }
            }
        }
    }
    for (player, (&won, lower)) in wins.iter().zip(&race.lower).enumerate() {
        let p = lower.to_f64();
        let z = (won as f64 / games as f64 - p) / (p * (1.0 - p) / games as f64).sqrt();
        assert!(z.abs() < 4.5, "player {}: z = {z}", player + 1);
    }
}

#[test]
fn simulation_agrees_with_the_exact_chance_of_the_pass_line() {
    let chain = classic::craps();
    let win = label_set(&chain, "win");
    let weighted = chain.weighted().unwrap();
    let walks = Walks { runs: 400_000, seed: 11, threads: 0, max_steps: 1_000_000 };
    let t = sample::simulate(&weighted, &win, walks, &Cancel::new()).unwrap();
    let p = (244.0f64) / 495.0;
    let z = (t.reached as f64 / t.runs as f64 - p) / (p * (1.0 - p) / t.runs as f64).sqrt();
    assert!(z.abs() < 4.5, "z = {z}");
    assert_eq!(t, sample::simulate(&weighted, &win, Walks { threads: 1, ..walks }, &Cancel::new()).unwrap());
}

/// Two players of the Milton Bradley board: the product chain's exact answer (13,124
/// states, 4,335 digits) between the bounds of the race on the one-player chain, 10^-30
/// apart. About four minutes: `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn two_players_of_chutes_and_ladders_split_the_wins_as_the_one_player_chain_says() {
    let params = GameParams { players: 2, ..GameParams::default() };
    let game = games::build("chutes-and-ladders", &params).unwrap();
    assert_eq!(game.race, None, "two players are solved exactly");
    let one = reach_probability(&game.chain, &label_set(&game.chain, "player1_wins"), &Cancel::new())
        .unwrap()[0]
        .clone();
    let single = games::build("chutes-and-ladders", &GameParams::default()).unwrap().chain;
    let race = race_of(&single, 2);
    assert!(race.lower[0] <= one && one <= Rational::from(&race.lower[0] + &race.undecided));
    assert_eq!(format!("{:.6}", one.to_f64()), "0.507912");
}

/// Herman's ring of 5 processes starts in any of its 32 states: the simulated steps' mean and
/// spread against the exact mean and the variance of a run from a uniformly drawn initial
/// state (the variances from each state, plus the spread of their means).
#[test]
fn simulated_steps_agree_with_the_exact_mean_and_variance_over_the_initial_states() {
    use pegchain::chains::{Question, Simulation, Target, analyse};
    let params = GameParams { processes: 5, ..GameParams::default() };
    let game = games::build("herman", &params).unwrap();
    let simulation = Simulation { runs: 1_000_000, seed: 3, threads: 0, max_steps: 1_000_000 };
    let question = Question {
        target: Some(Target::Label("stable".into())),
        simulation: Some(simulation),
        ..Question::default()
    };
    let report = analyse(&game.chain, &question, &Cancel::new()).unwrap();
    let e = report.estimate.unwrap();
    let (mean, variance) = e.steps.unwrap();
    let t = &e.tally;
    assert_eq!((t.reached, t.cut_short), (t.runs, 0));
    let n = t.runs as f64;
    let sample_mean = t.steps as f64 / n;
    let sample_variance = (t.steps_squared as f64 - n * sample_mean * sample_mean) / (n - 1.0);
    let z = (sample_mean - mean.to_f64()) / (variance.to_f64() / n).sqrt();
    assert!(z.abs() < 4.5, "z = {z}");
    assert!((sample_variance / variance.to_f64() - 1.0).abs() < 0.02, "{sample_variance} against {variance}");
    // The variances from each initial state alone are not the answer: their spread counts.
    let within: Rational = {
        let target = label_set(&game.chain, "stable");
        let each = steps_mean_and_variance(&game.chain, &target, &Cancel::new()).unwrap();
        let initial = game.chain.initial();
        initial.iter().map(|&s| each[s as usize].clone().unwrap().1).sum::<Rational>() / initial.len() as u32
    };
    assert!((sample_variance / within.to_f64() - 1.0).abs() > 0.05, "{sample_variance} against {within}");
}
