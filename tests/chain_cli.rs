//! `chain`, `game`, `games` and `export` from the command line: round trips through DRN and
//! PRISM files that give back the figures of the other commands, Storm's own exact values
//! for its exported models, and the bad-input contract.

mod support;
use support::{fails_with, json, pegchain, scratch, stdout};

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/chains/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn fraction(v: &serde_json::Value) -> &str {
    v["fraction"].as_str().unwrap()
}

#[test]
fn hermans_ring_gives_storms_exact_values() {
    // Storm 2.0's exact engine on the PRISM benchmark model (scripts/storm_crosscheck.py):
    // R{"steps"}=? [F "stable"] from state 0, and the largest over the initial states.
    for (file, state0, max) in [("herman5.drn", "44/15", "16/5"), ("herman7.drn", "130472/23751", "48/7")] {
        let v = json(&["chain", &fixture(file), "--target", "stable", "--reward", "steps"]);
        let t = &v["target"];
        assert_eq!(fraction(&t["initial"][0]["expected_steps"]), state0, "{file}");
        assert_eq!(fraction(&t["initial"][0]["expected_reward"]), state0, "{file}");
        assert_eq!(fraction(&t["expected_steps"]["max"]), max, "{file}");
        assert_eq!(fraction(&t["reach"]["min"]), "1");
        assert_eq!(v["initial_states"], v["states"]);
    }
}

#[test]
fn peg_solitaire_exported_and_read_back_gives_the_exact_engines_fraction() {
    let dir = scratch("export-solitaire");
    let drn = dir.join("a.drn");
    let prefix = dir.join("a");
    for (start, policy) in [("A", "uniform"), ("E", "peg-first"), ("D", "hole-first")] {
        let exact = json(&["exact", "--start", start, "--policy", policy]);
        let win = fraction(&exact["starts"][0]["win"]).to_string();
        let expected_pegs = fraction(&exact["starts"][0]["expected_pegs_left"]).to_string();
        pegchain()
            .args(["export", "--board", "triangle5", "--start", start, "--policy", policy])
            .args(["--drn", drn.to_str().unwrap(), "--prism", prefix.to_str().unwrap()])
            .assert()
            .success();
        for model in [drn.to_str().unwrap().to_string(), format!("{}.tra", prefix.display())] {
            let v = json(&["chain", &model, "--target", "one_peg"]);
            assert_eq!(fraction(&v["target"]["reach"]["average"]), win, "{start} {policy} {model}");
            // Where it ends: P(n pegs left) summed into the expected pegs left.
            let ends = json(&["chain", &model]);
            let mut expected = rug::Rational::new();
            for end in ends["ends"].as_array().unwrap() {
                let pegs: u32 = end["labels"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find_map(|l| l.as_str().unwrap().strip_prefix("pegs_"))
                    .unwrap()
                    .parse()
                    .unwrap();
                let p: rug::Rational = fraction(&end["probability"]).parse().unwrap();
                expected += p * pegs;
            }
            assert_eq!(expected.to_string(), expected_pegs, "{start} {policy}");
        }
    }
}

#[test]
fn the_race_exported_and_read_back_gives_the_race_commands_figures() {
    let dir = scratch("export-race");
    let drn = dir.join("race.drn");
    pegchain().args(["export", "--race", "--drn", drn.to_str().unwrap()]).assert().success();
    let race = json(&["race"]);
    let v = json(&["chain", drn.to_str().unwrap(), "--target", "swine_wins"]);
    assert_eq!(fraction(&v["target"]["reach"]["average"]), fraction(&race["swine_wins"]));
    // Every face of seed 004's die moves someone, so steps are turns.
    let v = json(&["chain", drn.to_str().unwrap(), "--target", "over", "--distribution", "8"]);
    assert_eq!(fraction(&v["target"]["expected_steps"]["average"]), fraction(&race["turns"]["mean"]));
    assert_eq!(fraction(&v["target"]["variance_steps"]["average"]), fraction(&race["turns"]["variance"]));
    let d = &v["target"]["distribution"];
    assert_eq!((d["median"].as_u64(), d["percentile_90"].as_u64()), (Some(3), Some(5)));
    assert_eq!(fraction(&d["steps"][3]["probability"]), "8/27");
}

#[test]
fn chutes_and_ladders_exported_keeps_its_published_length() {
    let published = "225837582538403273407117496273279920181931269186581786048583/5757472998140039232950575874628786131130999406013041613400";
    let v = json(&["game", "chutes-and-ladders"]);
    assert_eq!(fraction(&v["target"]["expected_reward"]["average"]), published);
    let dir = scratch("export-chutes");
    let prefix = dir.join("cl");
    let drn = dir.join("cl.drn");
    pegchain()
        .args([
            "export",
            "--game",
            "chutes-and-ladders",
            "--prism",
            prefix.to_str().unwrap(),
            "--drn",
            drn.to_str().unwrap(),
        ])
        .assert()
        .success();
    for model in [format!("{}.tra", prefix.display()), drn.display().to_string()] {
        let reward = if model.ends_with(".tra") { "cl" } else { "turns" };
        let v = json(&["chain", &model, "--target", "finish", "--reward", reward]);
        assert_eq!(fraction(&v["target"]["expected_reward"]["average"]), published, "{model}");
    }
}

#[test]
fn games_answer_their_published_figures() {
    let v = json(&["game", "craps"]);
    let ends = v["ends"].as_array().unwrap();
    let win = ends.iter().find(|e| e["labels"].as_array().unwrap().iter().any(|l| l == "win")).unwrap();
    assert_eq!(fraction(&win["probability"]), "244/495");
    // An end's labels are parted by commas, as in the header: spaces alone made `q r` and
    // `z9` read as three labels.
    let text = stdout(&["game", "craps"]);
    assert!(text.contains("\n7    over, win       244/495  0.492929\n"), "{text}");
    let v = json(&["game", "knuth-yao"]);
    assert_eq!(fraction(&v["target"]["expected_reward"]["average"]), "11/3");
    assert!(v["ends"].as_array().unwrap().iter().all(|e| fraction(&e["probability"]) == "1/6"));
    let v = json(&["game", "gamblers-ruin", "--stake", "3", "--goal", "7", "--p", "0.6", "--target", "win"]);
    // (1 - (2/3)^3) / (1 - (2/3)^7) = (19/27) / (2059/2187) = 1539/2059.
    assert_eq!(fraction(&v["target"]["reach"]["average"]), "1539/2059");
    let text = stdout(&["games"]);
    assert!(text.contains("chutes-and-ladders") && text.contains("knuth-yao"), "{text}");
}

/// `--places P` pins a race to P decimal places. On a small board with a chute and a ladder,
/// two players' exact chances come from their product chain (`game board`, 39/70 and 31/70);
/// the race on the one-player chain exported from it brackets them within 10^-60 at 60
/// places, inside its 30-place bounds. `--places` where no race is run, or out of range, is
/// refused.
#[test]
fn more_places_pin_a_race_closer_around_the_exact_chances() {
    use rug::ops::Pow;
    let dir = scratch("race-places");
    let rules = dir.join("small.txt");
    std::fs::write(&rules, "squares 6\nspinner 1-3\novershoot bounce\nchute 5 1\nladder 2 4\n").unwrap();
    let rules = rules.to_str().unwrap();
    let drn = dir.join("small.drn");
    let drn = drn.to_str().unwrap();
    pegchain().args(["export", "--game", "board", "--rules", rules, "--drn", drn]).assert().success();
    let exact = |v: &serde_json::Value| fraction(v).parse::<rug::Rational>().unwrap();
    let product = json(&["game", "board", "--rules", rules, "--players", "2"]);
    let wins = |label: &str| {
        let ends = product["ends"].as_array().unwrap();
        exact(&ends.iter().find(|e| e["labels"][0] == label).unwrap()["probability"])
    };
    let chances = [wins("player1_wins"), wins("player2_wins")];
    assert_eq!(chances, [rug::Rational::from((39, 70)), rug::Rational::from((31, 70))]);
    let race = |places: &str| {
        let v = json(&["chain", drn, "--target", "finish", "--players", "2", "--places", places]);
        let r = &v["race"];
        assert_eq!(r["places"].as_u64(), Some(places.parse().unwrap()));
        let bounds: Vec<(rug::Rational, rug::Rational)> = r["chances"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (exact(&c["lower"]), exact(&c["upper"])))
            .collect();
        (exact(&r["undecided"]), bounds)
    };
    let (gap30, bounds30) = race("30");
    let (gap60, bounds60) = race("60");
    assert!(gap60 > 0 && gap60 <= rug::Rational::from((1, rug::Integer::from(10).pow(60))), "{gap60}");
    assert!(gap30 > gap60);
    for ((chance, (lower30, upper30)), (lower60, upper60)) in chances.iter().zip(&bounds30).zip(&bounds60) {
        assert!(lower30 <= lower60 && lower60 <= chance && chance <= upper60 && upper60 <= upper30);
    }
    fails_with(
        &["chain", drn, "--target", "finish", "--places", "60"],
        "--places pins the chances of a race",
    );
    // Two players solved by their product chain have exact chances: it said "this answer has
    // none", as if it had no chances at all.
    fails_with(
        &["game", "board", "--rules", rules, "--players", "2", "--places", "60"],
        "--places pins the chances of a race between players where their product chain is too large \
         to solve exactly; here the 2 players' chances are exact fractions from their product chain, so \
         there is nothing to pin",
    );
    fails_with(
        &["chain", drn, "--target", "finish", "--players", "2", "--places", "0"],
        "--places takes 1 to 1000",
    );
    fails_with(&["game", "chutes-and-ladders", "--players", "3", "--places", "1001"], "not 1001");
}

/// Three players of Chutes and Ladders: too many for the product chain, so they race on the
/// one-player chain: each chance between exact fractions that share out all the mass, and
/// their 30-place decimals rounded outward.
#[test]
fn three_players_race_on_the_one_player_chain() {
    use rug::ops::Pow;
    let v = json(&["game", "chutes-and-ladders", "--players", "3"]);
    let race = &v["race"];
    assert_eq!((race["players"].as_u64(), race["places"].as_u64()), (Some(3), Some(30)));
    let exact = |v: &serde_json::Value| fraction(v).parse::<rug::Rational>().unwrap();
    let undecided = exact(&race["undecided"]);
    assert!(undecided > 0 && undecided <= rug::Rational::from((1, rug::Integer::from(10).pow(30))));
    let chances = race["chances"].as_array().unwrap();
    assert_eq!(chances.len(), 3);
    let mut total = undecided.clone();
    for (i, c) in chances.iter().enumerate() {
        let (lower, upper) = (exact(&c["lower"]), exact(&c["upper"]));
        assert_eq!(upper, rug::Rational::from(&lower + &undecided), "player {}", i + 1);
        let places = |key: &str| {
            let text = c[key].as_str().unwrap();
            assert_eq!(text.len(), 32, "{text}");
            rug::Rational::from((
                text.replace("0.", "").parse::<rug::Integer>().unwrap(),
                rug::Integer::from(10).pow(30),
            ))
        };
        assert!(places("at_least") <= lower && upper <= places("at_most"));
        total += lower;
    }
    assert_eq!(total, 1);
    let csv = stdout(&["game", "chutes-and-ladders", "--players", "3", "--csv"]);
    assert!(csv.starts_with("player,lower,at_least,upper,at_most\n1,"), "{csv}");
    // The same race on the one-player chain from a file: the same chances, fraction for fraction.
    let dir = scratch("race-from-a-file");
    let drn = dir.join("cl.drn");
    pegchain()
        .args(["export", "--game", "chutes-and-ladders", "--drn", drn.to_str().unwrap()])
        .assert()
        .success();
    let drn = drn.to_str().unwrap();
    let from_file = json(&["chain", drn, "--target", "finish", "--players", "3"]);
    assert_eq!(from_file["race"], v["race"]);
    fails_with(&["chain", drn, "--players", "3"], "a race is won by reaching a target: name the target");
    fails_with(
        &["chain", drn, "--target", "finish", "--players", "0"],
        "--players takes 1 to 64 players, not 0",
    );
    // One player races no one: the chain's own answers, as `game --players 1` gives them
    // (it ran a race of one, "Who wins: 1 player").
    let alone = json(&["chain", drn, "--target", "finish", "--players", "1"]);
    assert_eq!(alone, json(&["chain", drn, "--target", "finish"]));
    let game = json(&["game", "chutes-and-ladders", "--players", "1"]);
    assert_eq!(alone["target"]["expected_steps"], game["target"]["expected_steps"]);
    assert!(alone.get("race").is_none() && game.get("race").is_none(), "{alone}");
    fails_with(
        &["chain", drn, "--target", "finish", "--players", "1", "--places", "5"],
        "this answer has none",
    );
}

#[test]
fn a_board_game_from_a_rules_file() {
    let dir = scratch("board-game");
    let rules = dir.join("tiny.txt");
    std::fs::write(&rules, "squares 3\nspinner 1-2\novershoot stay\n").unwrap();
    // From 0: 1 -> 1, 2 -> 2; from 1: 1 -> 2, 2 -> 3; from 2: 1 -> 3, 2 stays.
    // E0 = 1 + (E1 + E2)/2, E1 = 1 + E2/2, E2 = 1 + E2/2 = 2: E1 = 2, E0 = 3.
    let v = json(&["game", "board", "--rules", rules.to_str().unwrap()]);
    assert_eq!(fraction(&v["target"]["expected_steps"]["average"]), "3");
    // Twos only, to an odd goal: never reached, an answer; a race to it is never decided.
    std::fs::write(&rules, "squares 99\ndie 0 1\novershoot stay\n").unwrap();
    let v = json(&["game", "board", "--rules", rules.to_str().unwrap()]);
    assert_eq!(fraction(&v["target"]["reach"]["average"]), "0");
    assert_eq!(v["target"]["steps_finite"], false);
    fails_with(
        &["game", "board", "--rules", rules.to_str().unwrap(), "--players", "3"],
        "from state 0 the target may never be reached",
    );
    std::fs::write(&rules, "squares 3\nspinner 1-2\nladder 1 9\n").unwrap();
    fails_with(
        &["game", "board", "--rules", rules.to_str().unwrap()],
        "line 3: a jump must start on a square from 1 to 2",
    );
}

#[test]
fn a_target_no_initial_state_can_reach_is_an_answer() {
    let v =
        json(&["game", "gamblers-ruin", "--target-states", "0", "--stake", "1", "--goal", "2", "--p", "1/3"]);
    assert_eq!(fraction(&v["target"]["reach"]["average"]), "2/3");
    let dir = scratch("unreachable");
    let drn = dir.join("u.drn");
    std::fs::write(
        &drn,
        "@type: DTMC\n@parameters\n\n@reward_models\n\n@nr_states\n2\n@model\nstate 0 init\n\taction 0\n\t\t0 : 1\nstate 1 goal\n\taction 0\n\t\t1 : 1\n",
    )
    .unwrap();
    let v = json(&["chain", drn.to_str().unwrap(), "--target", "goal"]);
    assert_eq!(fraction(&v["target"]["reach"]["average"]), "0");
    assert!(v["target"].get("expected_steps").is_none());
    assert_eq!(v["target"]["steps_finite"], false);
    assert_eq!(v["target"]["initial"][0]["steps_finite"], false);
    let text = stdout(&["chain", drn.to_str().unwrap(), "--target", "goal"]);
    assert!(
        text.contains("expected steps  infinite") && text.contains("so the expected steps are infinite"),
        "{text}"
    );
    let miss = text.lines().find(|l| l.starts_with("P(miss)")).unwrap();
    assert_eq!(miss.split_whitespace().collect::<Vec<_>>(), ["P(miss)", "1", "1.00000"], "{text}");
}

/// A file of doubles is read exactly as its decimals, and the answer says so: the same chain
/// with a probability Storm would have rounded (0.6666666667 for 2/3) is the rounded chain's.
#[test]
fn a_file_of_doubles_is_answered_as_written_and_says_so() {
    let dir = scratch("doubles");
    let model = |value_type: &str, p: &str, q: &str| {
        let drn = dir.join(format!("{value_type}-{}.drn", p.len()));
        std::fs::write(
            &drn,
            format!(
                "@type: DTMC\n@value_type: {value_type}\n@parameters\n\n@reward_models\n\n@nr_states\n3\n@model\n\
                 state 0 init\n\taction 0\n\t\t0 : {p}\n\t\t1 : {q}\nstate 1 goal\n\taction 0\n\t\t1 : 1\n\
                 state 2\n\taction 0\n\t\t2 : 1\n"
            ),
        )
        .unwrap();
        drn.to_str().unwrap().to_string()
    };
    let rounded = model("double", "0.3333333333", "0.6666666667");
    let v = json(&["chain", &rounded, "--target", "goal"]);
    assert_eq!(v["value_type"], "double");
    // 1 / (1 - 0.3333333333) steps, where the chain Storm rounded takes 3/2.
    assert_eq!(fraction(&v["target"]["expected_steps"]["average"]), "10000000000/6666666667");
    let text = stdout(&["chain", &rounded, "--target", "goal"]);
    assert!(
        text.contains("The file holds doubles (@value_type: double)") && text.contains("the rounded chain's"),
        "{text}"
    );
    let exact = model("rational", "1/3", "2/3");
    let v = json(&["chain", &exact, "--target", "goal"]);
    assert!(v.get("value_type").is_none(), "{v}");
    assert_eq!(fraction(&v["target"]["expected_steps"]["average"]), "3/2");
    assert!(!stdout(&["chain", &exact, "--target", "goal"]).contains("@value_type"));
}

#[test]
fn the_simulation_is_the_same_for_any_thread_count() {
    let args = ["game", "chutes-and-ladders", "--simulate", "200000", "--seed", "9", "--json"];
    let one = stdout(&[&args[..], &["--threads", "1"]].concat());
    let two = stdout(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    // Text gives z to three digits with its sign, as simulate, race and audit do (it gave
    // two places, "z = -0.03"). Seed 3's runs: z = -0.031495...
    let text = stdout(&["game", "chutes-and-ladders", "--simulate", "100000", "--seed", "3"]);
    assert!(text.contains("exact expected steps 39.2251; z = -0.0315"), "{text}");
    let mean = v["simulation"]["mean_steps"]["estimate"].as_f64().unwrap();
    // sd = sqrt(636.3) = 25.2; the mean of 200,000 runs is within 5 sd / sqrt(n) = 0.28.
    assert!((mean - 39.2251).abs() < 0.3, "{mean}");
    // Its 95% interval, from the runs' own spread: about 1.96 * 25.2 / sqrt(200,000) = 0.11
    // either side of the mean.
    let ci = &v["simulation"]["mean_steps"]["ci95"];
    let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
    assert!(lo < mean && mean < hi && (hi - lo - 0.221).abs() < 0.01, "{lo} {hi}");
}

#[test]
fn csv_and_markdown_carry_the_same_table() {
    let csv = stdout(&["game", "chutes-and-ladders", "--distribution", "10", "--csv"]);
    assert_eq!(
        csv.lines().next(),
        Some("steps,probability,probability_decimal,cumulative,cumulative_decimal")
    );
    assert_eq!(csv.lines().count(), 12);
    assert!(csv.lines().nth(8).unwrap().starts_with("7,"), "{csv}");
    // Each fraction has its decimal beside it (the columns held fractions alone).
    for row in csv.lines().skip(1) {
        let cells: Vec<&str> = row.split(',').collect();
        for (fraction, decimal) in [(cells[1], cells[2]), (cells[3], cells[4])] {
            let nearest = pegchain::render::number::nearest_f64(&fraction.parse::<rug::Rational>().unwrap());
            assert_eq!(decimal.parse::<f64>().unwrap(), nearest, "{row}");
        }
    }
    let md = stdout(&["game", "craps", "--markdown"]);
    assert!(md.contains("| end ") && md.contains("244/495"), "{md}");
    // The ends a game shows beside its own target are refused with --csv, as --ends is: the
    // CSV dropped them silently. The target named, its values alone make the table.
    fails_with(
        &["game", "craps", "--csv"],
        "--csv does not fit where the chain ends, which the game shows beside its target (--target over \
         gives the target alone): a CSV is one table, here the target's values by initial state",
    );
    let csv = stdout(&["game", "craps", "--target", "over", "--csv"]);
    assert_eq!(csv.lines().nth(1), Some("0,1,1.0,557/165,3.375757575757576,245672/27225,9.02376492194674,,"));
}

#[test]
fn bad_models_and_questions_get_one_line() {
    let dir = scratch("bad-models");
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let mdp = write("m.drn", "@type: MDP\n@model\n");
    fails_with(&["chain", &mdp], "m.drn: line 1: an MDP, not a DTMC");
    let sum = write(
        "s.drn",
        "@type: DTMC\n@parameters\n\n@nr_states\n1\n@model\nstate 0 init\n\taction 0\n\t\t0 : 0.9\n",
    );
    fails_with(
        &["chain", &sum],
        "s.drn: line 7: the probabilities out of state 0 add up to 9/10, not exactly 1",
    );
    // A transition listed twice was added up silently; an unknown value type was let be.
    let twice = write(
        "twice.drn",
        "@type: DTMC\n@nr_states\n2\n@model\nstate 0 init\n\taction 0\n\t\t1 : 1/2\n\t\t1 : 1/2\n\
         state 1\n\taction 0\n\t\t1 : 1\n",
    );
    fails_with(&["chain", &twice], "twice.drn: state 0 lists a transition to state 1 twice");
    let twice = write("twice.tra", "2 3\n0 1 0.5\n0 1 0.5\n1 1 1\n");
    fails_with(&["chain", &twice], "twice.tra: state 0 lists a transition to state 1 twice");
    // A transition's two rewards were added up.
    let walk = write("rw.tra", "2 2\n0 1 1\n1 1 1\n");
    write("rw.trew", "2 2\n0 1 5\n0 1 5\n");
    fails_with(
        &["chain", &walk],
        "rw.trew: line 3: state 0 lists a reward for its transition to state 1 twice",
    );
    let foo = write("foo.drn", "@type: DTMC\n@value_type: foo\n@nr_states\n1\n@model\n");
    fails_with(
        &["chain", &foo],
        "foo.drn: line 2: value type \"foo\" is not read: the value types read are double, rational, parametric",
    );
    // A .tra line's fourth column is its action's label (as PRISM writes a DTMC's), or a number
    // of an MDP's line: "0 0 0.5 extra" was refused as an MDP.
    let action = write("a.tra", "2 3\n0 0 0.5 extra\n0 1 0.5\n1 1 1\n");
    let v = json(&["chain", &action, "--target-states", "1"]);
    assert_eq!(fraction(&v["target"]["expected_steps"]["average"]), "2");
    let mdp = write("mdp.tra", "2 3\n0 0 0 0.5\n0 0 1 0.5\n1 0 1 1\n");
    fails_with(&["chain", &mdp], "mdp.tra: line 2: four numbers (FROM CHOICE TO VALUE): an MDP, not a DTMC");
    // An MDP's header, as PRISM writes it, was read as a transition with probability 3.
    let mdp = write("mdph.tra", "2 2 3\n0 0 0 0.5\n0 0 1 0.5\n1 0 1 1\n");
    fails_with(
        &["chain", &mdp],
        "mdph.tra: line 1: three numbers (STATES CHOICES TRANSITIONS): an MDP's header, not a DTMC's",
    );
    let few = write("few.drn", "@type: DTMC\n@nr_states\n3\n@model\nstate 0 init\n\taction 0\n\t\t0 : 1\n");
    fails_with(&["chain", &few], "few.drn: line 3: @nr_states declares 3 states, but 1 is listed");
    let tra = write("t.tra", "2 2\n0 1 1\n1 1 x\n");
    fails_with(&["chain", &tra], "t.tra: line 3: not a number: \"x\"");
    // What a header declares is held to: these were read silently, the first label's states lost.
    let walk = write("d.tra", "2 2\n0 1 1\n1 1 1\n");
    write("d.lab", "0=\"init\" 1=\"lose\" 1=\"dup\"\n0: 0\n1: 1\n");
    fails_with(
        &["chain", &walk, "--target", "lose"],
        "d.lab: line 1: label index 1 is declared twice (\"lose\" and \"dup\")",
    );
    // So is a name given to two indices: their states were merged into one label.
    let walk = write("n.tra", "3 3\n0 1 1\n1 1 1\n2 2 1\n");
    write("n.lab", "0=\"init\" 1=\"win\" 2=\"win\"\n0: 0\n1: 1\n2: 2\n");
    fails_with(
        &["chain", &walk, "--target", "win"],
        "n.lab: line 1: label \"win\" is declared twice (indices 1 and 2)",
    );
    let over = write("l.tra", "2 1\n0 1 1\n1 1 1\n");
    fails_with(&["chain", &over], "l.tra: line 1: the header declares 1 transition, but 2 are listed");
    let good = fixture("herman5.drn");
    fails_with(
        &["chain", &good, "--target", "nope"],
        "the model has no label \"nope\" (its labels: init, stable)",
    );
    fails_with(
        &["chain", &good, "--target", "stable", "--reward", "cost"],
        "no reward structure \"cost\" (its rewards: steps)",
    );
    fails_with(
        &["chain", &good, "--target-states", "99"],
        "the model has no state 99 (its states are 0 to 31)",
    );
    fails_with(&["chain", &good, "--reward", "steps"], "a reward is accumulated until a target");
    // A state named twice is refused, as a hole named twice by --start is.
    fails_with(&["chain", &good, "--target-states", "1,3,1"], "--target-states names state 1 twice");
    fails_with(
        &["chain", &good, "--target-states", "1,x"],
        "--target-states takes state numbers separated by commas, not \"1,x\"",
    );
    // 1/2^70 cannot be drawn exactly with 64 random bits: refused before any solving.
    let wide = write(
        "w.tra",
        "2 3\n0 0 1180591620717411303423/1180591620717411303424\n0 1 1/1180591620717411303424\n1 1 1\n",
    );
    fails_with(
        &["chain", &wide, "--target-states", "1", "--simulate", "10"],
        "state 0 have a common denominator of 71 bits",
    );
    fails_with(&["chain", dir.join("missing.drn").to_str().unwrap()], "missing.drn: cannot read it");
    fails_with(&["chain", dir.to_str().unwrap()], "not a regular file (a directory)");
    fails_with(&["chain", &good, "--lab", "x.lab"], "--lab goes with a PRISM .tra file");
    fails_with(&["game", "monopoly"], "unknown game \"monopoly\"");
    fails_with(&["game", "gamblers-ruin", "--p", "1.5"], "strictly between 0 and 1");
    // A probability past the bounds of the reader is refused as such, not as "not a probability".
    fails_with(
        &["game", "gamblers-ruin", "--p", "1e-100000"],
        "--p \"1e-100000\" has too large an exponent: exponents up to ±10000 are taken",
    );
    fails_with(
        &["game", "gamblers-ruin", "--p", "half"],
        "--p takes a probability such as 18/37 or 0.4, not \"half\"",
    );
    let tiny =
        write("tiny.drn", "@type: DTMC\n@nr_states\n1\n@model\nstate 0 init\n\taction 0\n\t\t0 : 1e-20000\n");
    fails_with(
        &["chain", &tiny],
        "tiny.drn: line 7: \"1e-20000\" has too large an exponent: exponents up to ±10000 are taken",
    );
    let export = dir.join("four.drn");
    fails_with(
        &["export", "--game", "chutes-and-ladders", "--players", "4", "--drn", export.to_str().unwrap()],
        // It said "(simulate it instead)", which no export can.
        "4 players on this board make a chain of 172,186,888 states, more than the 2,000,000 a chain built \
         here may have (`game` answers who wins from the one-player chain)",
    );
    assert!(!export.exists());
    // Square 5 can be jumped over for ever: a race to it would never be decided.
    fails_with(
        &["game", "chutes-and-ladders", "--players", "3", "--target-states", "5"],
        "from state 0 the target may never be reached",
    );
    // The players a board game takes, as --help gives them: 0 was refused as "2 to 4".
    for players in ["0", "5"] {
        fails_with(
            &["game", "chutes-and-ladders", "--players", players],
            &format!(
                "a board game has 1 to 4 players (1 for the length of a game, 2 to 4 for who wins), not {players}"
            ),
        );
    }
    fails_with(
        &["game", "gamblers-ruin", "--stake", "0"],
        "the stake must be strictly between 0 and the goal 10, not 0",
    );
    // A known word with no values says how it is written, and a spinner too large says so.
    let die = write("die.txt", "squares 10\ndie\n");
    fails_with(
        &["game", "board", "--rules", &die],
        "die.txt: line 2: expected `die W1 W2 ...`, a weight for each face, found \"die\"",
    );
    let spinner = write("spinner.txt", "squares 10\nspinner 1-99999999999\n");
    fails_with(
        &["game", "board", "--rules", &spinner],
        "spinner.txt: line 2: a spinner runs from 1 to at most 1000: `spinner 1-6`",
    );
    fails_with(&["export", "--race"], "say where to write the chain");
    fails_with(&["export", "--drn", dir.join("no/such/x.drn").to_str().unwrap(), "--race"], "no directory");
    // What a message quotes of a file is cut short: a 1 MB line of garbage and a probability of
    // 10,001 digits were echoed whole, in one line of a megabyte.
    let long = dir.join("long.tra");
    std::fs::write(&long, format!("3 3\n0 1 1\n{}\n", "x".repeat(1_000_000))).unwrap();
    fails_with(
        &["chain", long.to_str().unwrap()],
        &format!(
            "line 3: expected `FROM TO PROBABILITY [ACTION]`, found {:?}... (1000000 characters)",
            "x".repeat(40)
        ),
    );
    let huge = dir.join("huge.tra");
    std::fs::write(&huge, "2 2\n0 1 1e10000\n1 1 1\n").unwrap();
    fails_with(
        &["chain", huge.to_str().unwrap()],
        "line 2: probability 100000…(10001 digits) out of state 0 is not in (0, 1]",
    );
    fails_with(
        &["exact", "--start", &"Q".repeat(100_000)],
        &format!("has no hole {:?}... (100000 characters);", "Q".repeat(40)),
    );
    // --drn naming one of --prism's files: the DRN file was silently overwritten by the .tra.
    let prefix = dir.join("clash");
    let prefix = prefix.to_str().unwrap();
    for drn in [format!("{prefix}.tra"), format!("{prefix}.lab")] {
        fails_with(
            &["export", "--game", "craps", "--drn", &drn, "--prism", prefix],
            &format!("--drn {drn} is also a file --prism {prefix} may write: give them different names"),
        );
        assert!(!std::path::Path::new(&drn).exists());
    }
    // The files --prism checks are those it writes: PREFIX.tra, whatever PREFIX ends in.
    std::fs::create_dir_all(dir.join("m.tra")).unwrap();
    std::fs::create_dir_all(dir.join("m.v2.tra")).unwrap();
    let written = dir.join("m.v1");
    pegchain().args(["export", "--game", "craps", "--prism", written.to_str().unwrap()]).assert().success();
    assert!(dir.join("m.v1.tra").is_file());
    let blocked = dir.join("m.v2");
    fails_with(
        &["export", "--game", "craps", "--prism", blocked.to_str().unwrap()],
        "m.v2.tra: a directory, not a file name",
    );
    // A directory as the prefix wrote hidden files named `.tra`, `.lab` and `.srew` into it.
    let folder = dir.join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    for prefix in [folder.to_str().unwrap().to_string(), format!("{}/", folder.display())] {
        fails_with(
            &["export", "--game", "craps", "--prism", &prefix],
            &format!("--prism {prefix}: a directory, not a prefix; the files are named PREFIX.tra"),
        );
    }
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0);
}

/// A long fraction in a message is abbreviated as text output abbreviates it, and a file name
/// longer than any path is cut short: a row summing to 1 + 10^-10000 gave a line of 20 KB, and
/// a model named by 100,000 characters echoed them all.
#[test]
fn long_sums_and_names_are_cut_short_in_messages() {
    let dir = scratch("long-messages");
    let drn = dir.join("e.drn");
    std::fs::write(
        &drn,
        "@type: DTMC\n@nr_states\n2\n@model\nstate 0 init\n\taction 0\n\t\t0 : 1e-10000\n\t\t1 : 1\n\
         state 1\n\taction 0\n\t\t1 : 1\n",
    )
    .unwrap();
    let sum = "add up to 100000…(10001 digits)/100000…(10001 digits), not exactly 1";
    fails_with(
        &["chain", drn.to_str().unwrap()],
        &format!("e.drn: line 5: the probabilities out of state 0 {sum}"),
    );
    let tra = dir.join("e.tra");
    std::fs::write(&tra, "2 3\n0 0 1e-10000\n0 1 1\n1 1 1\n").unwrap();
    fails_with(
        &["chain", tra.to_str().unwrap()],
        &format!("e.tra: line 2: the probabilities out of state 0 {sum}"),
    );
    fails_with(
        &["game", "gamblers-ruin", "--p", "1e1000"],
        "the probability of winning a round must be strictly between 0 and 1, not 100000…(1001 digits)",
    );
    let long = "m".repeat(100_000);
    fails_with(
        &["chain", &long],
        &format!("model file {}... (100000 characters): cannot read it: File name too long", "m".repeat(40)),
    );
}

#[test]
fn a_gamblers_ruin_past_the_exact_solver_is_refused_by_its_range() {
    // The goal - 1 states between ruin and the goal are one component: "from 2 to 1000000"
    // was stated, and a goal of 100000 was refused only once its chain was built.
    for goal in ["25002", "1000000"] {
        fails_with(
            &["game", "gamblers-ruin", "--goal", goal, "--stake", "3"],
            &format!(
                "the goal must be from 2 to 25001, not {goal}: the states between ruin and the goal all \
                 reach one another, and the exact solver factors at most 25,000 such states"
            ),
        );
    }
    fails_with(
        &["game", "gamblers-ruin", "--goal", "1", "--stake", "3"],
        "the goal must be from 2 to 25001, not 1",
    );
    // Written out, not solved, a chain may be larger.
    let drn = scratch("ruin-export").join("ruin.drn");
    let out =
        stdout(&["export", "--game", "gamblers-ruin", "--goal", "100000", "--drn", drn.to_str().unwrap()]);
    assert!(
        out.contains("goal 100000, a round won with probability 1/2 (100,001 states, 200,000 transitions)"),
        "{out}"
    );
    fails_with(
        &["export", "--game", "gamblers-ruin", "--goal", "1000001", "--drn", drn.to_str().unwrap()],
        "the goal must be from 2 to 1000000, not 1000001",
    );
}

/// A game setting the game does not take is refused naming the games that take it, where it
/// was ignored silently (`game knuth-yao --players 2` answered for one run of the die); the
/// settings a game takes still change its chain.
#[test]
fn a_setting_the_game_would_ignore_is_refused() {
    fails_with(
        &["game", "knuth-yao", "--players", "2"],
        "the game knuth-yao takes no --players (games that do: chutes-and-ladders, board)",
    );
    fails_with(
        &["game", "chutes-and-ladders", "--rules", "rules.txt"],
        "the game chutes-and-ladders takes no --rules (games that do: board)",
    );
    fails_with(
        &["game", "herman", "--stake", "3"],
        "the game herman takes no --stake (games that do: gamblers-ruin)",
    );
    fails_with(
        &["export", "--game", "craps", "--processes", "5", "--drn", "x.drn"],
        "the game craps takes no --processes (games that do: herman)",
    );
    fails_with(
        &["export", "--board", "triangle5", "--start", "A", "--goal", "3", "--drn", "x.drn"],
        "--goal is a setting of a game (--game NAME)",
    );
    let ruin = stdout(&["game", "gamblers-ruin", "--stake", "3", "--goal", "6", "--p", "2/5"]);
    assert!(ruin.contains("stake 3, goal 6, a round won with probability 2/5"), "{ruin}");
    let ring = stdout(&["game", "herman", "--processes", "3"]);
    assert!(ring.contains("ring of 3 processes"), "{ring}");
}

/// An export over an earlier one left the earlier chain's rewards (`PREFIX.srew`) beside the
/// new files, and reading them back was refused ("the header declares 9 states, but the chain
/// has 1544"). The export now removes a PRISM part it has no text for, and says so.
#[test]
fn an_export_removes_an_earlier_chains_prism_part_it_does_not_write() {
    let dir = scratch("export-over");
    let prefix = dir.join("c");
    let prefix = prefix.to_str().unwrap();
    let first = stdout(&["export", "--game", "craps", "--prism", prefix]);
    assert!(first.contains("c.tra, ") && first.contains("c.srew") && !first.contains("Removed"), "{first}");
    let second = stdout(&["export", "--board", "triangle5", "--start", "A", "--prism", prefix]);
    let srew = format!("{prefix}.srew");
    assert!(
        second.contains(&format!(
            "Removed {srew}, left by an earlier export under the same name: it would have been read with these files."
        )),
        "{second}"
    );
    assert!(!std::path::Path::new(&srew).exists());
    let v = json(&["chain", &format!("{prefix}.tra"), "--target", "one_peg"]);
    let exact = json(&["exact", "--board", "triangle5", "--start", "A"]);
    assert_eq!(fraction(&v["target"]["reach"]["average"]), fraction(&exact["starts"][0]["win"]));
    // Exported again, there is nothing left to remove.
    let v = json(&["export", "--board", "triangle5", "--start", "A", "--prism", prefix]);
    assert!(v.get("removed").is_none(), "{v}");
}

/// The simulation's settings without `--simulate` were ignored (`game craps --seed 1`
/// answered exactly and ran no simulation, exit 0); refused as `race` refuses them.
#[test]
fn a_simulation_setting_without_a_simulation_is_refused() {
    for flag in ["--seed", "--threads", "--max-steps"] {
        fails_with(
            &["game", "craps", flag, "3"],
            &format!("{flag} is a setting of the simulation: use it with --simulate N"),
        );
    }
    let herman = fixture("herman7.drn");
    fails_with(
        &["chain", &herman, "--target", "stable", "--seed", "3"],
        "--seed is a setting of the simulation: use it with --simulate N",
    );
    let simulated =
        stdout(&["game", "craps", "--simulate", "1000", "--seed", "3", "--max-steps", "50", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&simulated).unwrap();
    assert_eq!(v["simulation"]["runs"], 1000, "{simulated}");
    assert_eq!(v["simulation"]["seed"], 3, "{simulated}");
}
/// `--start` and `--policy` belong to a peg-solitaire export: with `--race` or `--game` they
/// were ignored and the chain written (`export --race --policy peg-first` wrote the race, exit
/// 0), since clap drops a `requires` when a conflicting flag is given. Now refused, with no
/// file written; with `--board` they still choose the chain.
#[test]
fn export_refuses_board_settings_without_a_board() {
    let dir = scratch("export-board-settings");
    let drn = dir.join("x.drn");
    let drn = drn.to_str().unwrap();
    let refused: [(&[&str], &str); 4] = [
        (&["export", "--race", "--policy", "peg-first", "--drn", drn], "--policy"),
        (&["export", "--race", "--start", "A", "--drn", drn], "--start"),
        (&["export", "--game", "craps", "--start", "A", "--drn", drn], "--start"),
        (&["export", "--game", "herman", "--policy", "uniform", "--drn", drn], "--policy"),
    ];
    for (args, flag) in refused {
        fails_with(args, &format!("{flag} is a setting of a peg-solitaire export (--board B)"));
        assert!(!dir.join("x.drn").exists(), "{args:?}");
    }
    fails_with(&["export", "--start", "A", "--drn", drn], "--start is a setting of a peg-solitaire export");
    let doc =
        json(&["export", "--board", "triangle4", "--start", "A", "--policy", "peg-first", "--drn", drn]);
    assert_eq!(doc["chain"], "triangle4, start A, peg-first random play");
    assert_eq!(doc["states"], 23);
}

/// Values quoted from a rules file, a game's, label's or reward's name and a `--simulate`
/// count were shown whole (a 100,000-digit face weight made a 100,000-character line), and a
/// model's labels were all listed; now each is cut to its first 40 characters and its length,
/// and the list to its first ten names.
#[test]
fn long_values_in_rules_names_and_counts_are_cut_short() {
    let dir = scratch("long-game-messages");
    let rules = dir.join("long.txt");
    let long = "9".repeat(100_000);
    let cut = format!("\"{}\"... (100000 characters)", "9".repeat(40));
    let path = rules.to_str().unwrap();
    std::fs::write(&rules, format!("squares 5\ndie 1 {long}\n")).unwrap();
    fails_with(
        &["game", "board", "--rules", path],
        &format!("line 2: a face weight is a whole number from 0 to 4294967295, not {cut}"),
    );
    std::fs::write(&rules, "squares 5\ndie 4294967296 1\n").unwrap();
    fails_with(
        &["game", "board", "--rules", path],
        "line 2: a face weight is a whole number from 0 to 4294967295, not \"4294967296\"",
    );
    std::fs::write(&rules, format!("squares {long}\nspinner 1-2\n")).unwrap();
    fails_with(
        &["game", "board", "--rules", path],
        &format!("line 1: squares must be from 1 to 10000, not {cut}"),
    );
    std::fs::write(&rules, format!("squares 5\nspinner 1-2\novershoot {long}\n")).unwrap();
    fails_with(
        &["game", "board", "--rules", path],
        &format!("line 3: overshoot is stay, bounce or finish, not {cut}"),
    );
    fails_with(&["game", &long], &format!("unknown game {cut}; the games are chutes-and-ladders"));
    fails_with(
        &["game", "craps", "--target", &long],
        &format!("the model has no label {cut} (its labels: lose, over, win)"),
    );
    fails_with(
        &["game", "craps", "--target", "win", "--reward", &long],
        &format!("the model has no reward structure {cut} (its rewards: rolls)"),
    );
    fails_with(
        &["game", "craps", "--target", "win", "--simulate", &long],
        &format!("--simulate takes at most 18446744073709551615 runs, not {cut}"),
    );
    let word = "x".repeat(100_000);
    fails_with(
        &["game", "craps", "--target", "win", "--simulate", &word],
        &format!(
            "--simulate takes a whole number of runs of at least 1, not \"{}\"... (100000 characters)",
            "x".repeat(40)
        ),
    );
    // Thirty labels: ten are named.
    let drn = dir.join("labels.drn");
    let labels: Vec<String> = (0..30).map(|i| format!("l{i:02}")).collect();
    std::fs::write(
        &drn,
        format!(
            "@type: DTMC\n@nr_states\n1\n@model\nstate 0 init {}\n\taction 0\n\t\t0 : 1\n",
            labels.join(" ")
        ),
    )
    .unwrap();
    fails_with(
        &["chain", drn.to_str().unwrap(), "--target", "nope"],
        "the model has no label \"nope\" (its labels: init, l00, l01, l02, l03, l04, l05, l06, l07, l08, and 21 more)",
    );
}

/// The gambler's ruin's title and `export`'s line showed `--p` whole (a 100,000-digit decimal
/// made a title of 200,073 characters, underlined as long); now abbreviated as the tables'
/// fractions are, whole with `--full` and in JSON.
#[test]
fn a_long_probability_is_abbreviated_in_titles() {
    let p = format!("0.{}", "3".repeat(99));
    let game = ["game", "gamblers-ruin", "--stake", "1", "--goal", "3", "--p", &p];
    let text = stdout(&game);
    let title = "Markov chain gambler's ruin: stake 1, goal 3, a round won with probability \
                 333333…(99 digits)/100000…(100 digits)";
    assert_eq!(text.lines().next(), Some(title), "{text}");
    assert_eq!(text.lines().nth(1).map(str::len), Some(title.chars().count()), "{text}");
    let whole = format!("{}/1{}", "3".repeat(99), "0".repeat(99));
    let full = stdout(&[&game[..], &["--full"]].concat());
    assert!(full.lines().next().unwrap().ends_with(&whole), "{full}");
    let v = json(&game);
    assert!(v["model"].as_str().unwrap().ends_with(&whole), "{v}");
    let dir = scratch("long-p-export");
    let drn = dir.join("ruin.drn");
    let export = ["export", "--game", "gamblers-ruin", "--stake", "1", "--goal", "3", "--p", &p];
    let wrote = stdout(&[&export[..], &["--drn", drn.to_str().unwrap()]].concat());
    assert!(wrote.starts_with(&format!("Wrote {}", &title["Markov chain ".len()..])), "{wrote}");
}

/// A label of no state (a board whose die never reaches the finish) vanished from a DRN
/// export without a word, while the PRISM `.lab` kept it; now the export says so.
#[test]
fn a_label_a_drn_file_cannot_hold_is_named() {
    let dir = scratch("empty-label");
    let rules = dir.join("stuck.txt");
    std::fs::write(&rules, "squares 5\ndie 0 1\novershoot stay\n").unwrap();
    let drn = dir.join("stuck.drn");
    let export =
        ["export", "--game", "board", "--rules", rules.to_str().unwrap(), "--drn", drn.to_str().unwrap()];
    let v = json(&export);
    assert_eq!(v["labels_not_in_drn"], serde_json::json!(["finish"]), "{v}");
    let text = stdout(&export);
    assert!(text.contains("The DRN file leaves out the label finish, which holds no state"), "{text}");
    fails_with(
        &["chain", drn.to_str().unwrap(), "--target", "finish"],
        "the model has no label \"finish\" (its labels: init)",
    );
    let prism = dir.join("stuck");
    let v = json(&[
        "export",
        "--game",
        "board",
        "--rules",
        rules.to_str().unwrap(),
        "--prism",
        prism.to_str().unwrap(),
    ]);
    assert!(v.get("labels_not_in_drn").is_none(), "{v}");
}

/// A rules file's second `squares`, `spinner`/`die` or `overshoot` line silently replaced the
/// first (`squares 3` then `squares 5` answered for 5 squares); now it is refused naming both
/// lines.
#[test]
fn a_rules_setting_given_twice_is_refused() {
    let dir = scratch("rules-twice");
    let rules = dir.join("twice.txt");
    let path = rules.to_str().unwrap();
    for (text, message) in [
        (
            "squares 3\nspinner 1-2\nsquares 5\n",
            "line 3: the goal square (`squares`) is already given on line 1",
        ),
        ("squares 3\nspinner 1-2\ndie 1 1\n", "line 3: the spinner or die is already given on line 2"),
        (
            "squares 3\novershoot stay\nspinner 1-2\novershoot bounce\n",
            "line 4: the overshoot rule is already given on line 2",
        ),
        (
            "squares 3\nspinner 1-2\nfoo 1\n",
            "line 3: expected squares, spinner, die, overshoot, ladder or chute, found \"foo\" with 1 value",
        ),
    ] {
        std::fs::write(&rules, text).unwrap();
        fails_with(&["game", "board", "--rules", path], message);
    }
    // Given once, each still counts: 3 squares, a fair 1-2 spinner, E[turns] = 3.
    std::fs::write(&rules, "squares 3\nspinner 1-2\novershoot stay\n").unwrap();
    let v = json(&["game", "board", "--rules", path]);
    assert_eq!(fraction(&v["target"]["expected_steps"]["average"]), "3");
}

/// A DRN file naming one reward model twice had the two added up into one (rewards 1 and 2
/// gave an expected reward of 3); now it is refused with its line.
#[test]
fn a_drn_reward_model_named_twice_is_refused() {
    let dir = scratch("reward-twice");
    let drn = dir.join("r.drn");
    let model = |names: &str, rewards: &str| {
        format!(
            "@type: DTMC\n@reward_models\n{names}\n@nr_states\n2\n@model\nstate 0 [{rewards}] init\n\taction 0\n\t\t1 : 1\n\
             state 1 [{}] goal\n\taction 0\n\t\t1 : 1\n",
            rewards.split(',').map(|_| "0").collect::<Vec<_>>().join(",")
        )
    };
    std::fs::write(&drn, model("r r", "1, 2")).unwrap();
    fails_with(&["chain", drn.to_str().unwrap()], "r.drn: line 3: reward model \"r\" is named twice");
    std::fs::write(&drn, model("r s", "1, 2")).unwrap();
    let v = json(&["chain", drn.to_str().unwrap(), "--target", "goal", "--reward", "s"]);
    assert_eq!(fraction(&v["target"]["expected_reward"]["average"]), "2");
    // One value for two models: "1 reward values" read "1 reward value".
    std::fs::write(&drn, model("r s", "1")).unwrap();
    fails_with(
        &["chain", drn.to_str().unwrap()],
        "r.drn: line 7: 1 reward value, but @reward_models names 2",
    );
}

/// A race every player finishes within a few rounds said "no player has arrived with
/// probability 0 only ... which this answer does not solve" (and "After 1 rounds"); the chances
/// are then exact, and the text says so.
#[test]
fn a_race_decided_within_its_rounds_says_its_chances_are_exact() {
    let dir = scratch("race-exact");
    let tra = dir.join("w.tra");
    // From 0: to 2 at once (1/2) or through 1 (1/2). Player 1 wins at once with 1/2, or in
    // round 2 when player 2 did not finish at once: 1/2 + 1/2 * 1/2 = 3/4.
    std::fs::write(&tra, "0 1 1/2\n0 2 1/2\n1 2 1\n2 2 1\n").unwrap();
    let args = ["chain", tra.to_str().unwrap(), "--target-states", "2", "--players", "2"];
    let text = stdout(&args);
    assert!(
        text.contains("Within 2 rounds some player has surely arrived, so the chances below are exact"),
        "{text}"
    );
    assert!(!text.contains("does not solve"), "{text}");
    let v = json(&args);
    assert_eq!(fraction(&v["race"]["undecided"]), "0");
    assert_eq!(fraction(&v["race"]["chances"][0]["lower"]), "3/4");
    assert_eq!(fraction(&v["race"]["chances"][0]["upper"]), "3/4");
    assert_eq!(fraction(&v["race"]["chances"][1]["lower"]), "1/4");
    // A race that is not decided keeps its bounds' wording.
    let text = stdout(&["game", "chutes-and-ladders", "--players", "3"]);
    assert!(
        text.contains("After 576 rounds no player has arrived with probability 9.82686e-31 only"),
        "{text}"
    );
}

/// Where the chain ends was listed in the solver's order, so two players of a board game read
/// player 2 before player 1; now the ends are in the order of their states.
#[test]
fn the_ends_are_listed_in_state_order() {
    let dir = scratch("ends-order");
    let rules = dir.join("three.txt");
    std::fs::write(&rules, "squares 3\nspinner 1-2\n").unwrap();
    // One player: T = 2 with 1/2, else 3, 4, ... with 1/4, 1/8, ...; player 1 wins with
    // 1/2 + sum over k >= 3 of 2^-(k-1) 2^-(k-2) = 1/2 + 1/6 = 2/3.
    let v = json(&["game", "board", "--rules", rules.to_str().unwrap(), "--players", "2"]);
    let ends = v["ends"].as_array().unwrap();
    assert_eq!(ends[0]["labels"][0], "player1_wins");
    assert_eq!(fraction(&ends[0]["probability"]), "2/3");
    assert_eq!(ends[1]["labels"][0], "player2_wins");
    assert_eq!(fraction(&ends[1]["probability"]), "1/3");
    let csv = stdout(&["game", "board", "--rules", rules.to_str().unwrap(), "--players", "2", "--csv"]);
    assert_eq!(
        csv,
        "states,labels,probability,decimal\n18,player1_wins,2/3,0.6666666666666666\n19,player2_wins,1/3,0.3333333333333333\n"
    );
    let help = stdout(&["game", "--help"]);
    assert!(help.contains("the Knuth-Yao die, craps, Herman's ring"), "{help}");
    // The rules file's lines are in the help, not only in the README.
    assert!(help.contains("`squares N` (the goal), `spinner 1-N` or `die W1 W2 ...`"), "{help}");
}

/// A file saved with a byte order mark (as Windows Notepad may save it) had the mark read
/// as part of its first word: `found "\u{feff}squares"`, `not a state number: "\u{feff}0"`.
/// Now the mark is skipped, in rules files and in model files alike.
#[test]
fn a_byte_order_mark_at_the_start_of_a_file_is_skipped() {
    let dir = scratch("byte-order-mark");
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, [&b"\xEF\xBB\xBF"[..], text.as_bytes()].concat()).unwrap();
        p.display().to_string()
    };
    let rules = write("rules.txt", "squares 3\r\nspinner 1-2\r\n");
    let v = json(&["game", "board", "--rules", &rules]);
    assert_eq!(fraction(&v["target"]["expected_steps"]["average"]), "3");
    let drn = write(
        "walk.drn",
        "@type: DTMC\n@nr_states\n2\n@model\nstate 0 init\n\taction 0\n\t\t0 : 1/3\n\t\t1 : 2/3\nstate 1 goal\n\taction 0\n\t\t1 : 1\n",
    );
    let v = json(&["chain", &drn, "--target", "goal"]);
    assert_eq!(fraction(&v["target"]["expected_steps"]["average"]), "3/2");
    let tra = write("walk.tra", "2 3\n0 0 1/3\n0 1 2/3\n1 1 1\n");
    write("walk.lab", "0=\"init\" 1=\"goal\"\n0: 0\n1: 1\n");
    let v = json(&["chain", &tra, "--target", "goal"]);
    assert_eq!(fraction(&v["target"]["expected_steps"]["average"]), "3/2");
    // A byte that is not UTF-8 is still placed by its offset in the file.
    let bad = dir.join("bad.drn");
    std::fs::write(&bad, b"\xEF\xBB\xBF@type\xFF").unwrap();
    fails_with(&["chain", bad.to_str().unwrap()], "bad.drn: not UTF-8 text (an invalid byte at offset 8)");
}

/// `--visits` from an initial state the chain never leaves printed a table with a header and
/// no rows; now it says why no transient state is visited (JSON keeps its empty list).
#[test]
fn visits_from_a_state_where_the_chain_ends_say_why_there_are_none() {
    let dir = scratch("visits-recurrent");
    let tra = dir.join("stay.tra");
    std::fs::write(&tra, "2 3\n0 0 1\n1 0 1/2\n1 1 1/2\n").unwrap();
    let args = ["chain", tra.to_str().unwrap(), "--visits"];
    let text = stdout(&args);
    assert!(
        text.contains("State 0 lies where the chain ends (an absorbing state or a closed class), so no transient state is ever visited from it."),
        "{text}"
    );
    assert!(!text.contains("expected visits"), "{text}");
    let v = json(&args);
    assert_eq!(v["visits_from"], 0);
    assert_eq!(v["visits"].as_array().unwrap().len(), 0);
    // From a transient state the table is there: state 1 stays with 1/2, 2 visits.
    std::fs::write(dir.join("stay.lab"), "0=\"init\"\n1: 0\n").unwrap();
    let v = json(&args);
    assert_eq!(v["visits_from"], 1);
    assert_eq!(fraction(&v["visits"][0]["expected_visits"]), "2");
}

/// With several initial states the text said "The first initial states:" when every one was
/// listed, and "... and 2038 more" without the thousands separator the text's counts carry.
#[test]
fn the_initial_states_listed_say_how_many_are_left_out() {
    // Herman's ring of 3: every state initial; the two with three tokens take 4/3 steps.
    let text = stdout(&["game", "herman", "--processes", "3"]);
    assert!(text.contains("\nThe initial states:\n"), "{text}");
    assert!(!text.contains("more (all of them"), "{text}");
    assert!(text.contains("expected steps         1/3 (0.333333)"), "{text}");
    let text = stdout(&["game", "herman", "--processes", "11"]);
    assert!(text.contains("\nThe first 10 initial states:\n"), "{text}");
    assert!(text.contains("\n... and 2,038 more (all of them in --json and --csv)\n"), "{text}");
}

/// A chain file declaring more states than memory holds was refused with "a chain of
/// 400000001 states and 1 transitions"; now the counts are grouped and take their noun's number.
#[test]
fn a_chain_too_large_for_memory_is_refused_in_counted_words() {
    let dir = scratch("too-large-words");
    let tra = dir.join("far.tra");
    // 4 billion states need 256 GB, past any budget of this machine or a reader's.
    std::fs::write(&tra, "0 4000000000 1\n").unwrap();
    fails_with(
        &["chain", tra.to_str().unwrap()],
        "far.tra: a chain of 4,000,000,001 states and 1 transition is projected to need 256 GB with the file's text, over the memory budget of",
    );
}

/// A race whose rounds ran out before its bounds were 10^-places apart said "no player has
/// arrived with probability 8.79451e-892 only" (or "1.00000 only"), as if it had got as close
/// as asked; now it says the mass left is more than asked and why.
#[test]
fn a_race_stopped_by_its_rounds_says_it_is_short_of_the_places_asked() {
    let dir = scratch("race-short");
    let tra = dir.join("slow.tra");
    // Each turn a player arrives with 1/20: player 1 wins with (1/20) / (1 - (19/20)^2) = 20/39.
    // 10^-1000 would need 22,443 rounds; 20,000 are summed, leaving (19/20)^40000.
    std::fs::write(&tra, "0 0 19/20\n0 1 1/20\n1 1 1\n").unwrap();
    let args = ["chain", tra.to_str().unwrap(), "--target-states", "1", "--players", "2", "--places", "1000"];
    let text = stdout(&args);
    assert!(
        text.contains(
            "After 20,000 rounds no player has arrived with probability 8.79451e-892, more than the 10^-1000 asked \
             (the race stopped at the most rounds it sums):"
        ),
        "{text}"
    );
    let v = json(&args);
    let exact = rug::Rational::from((20, 39));
    let bound = |k: &str| fraction(&v["race"]["chances"][0][k]).parse::<rug::Rational>().unwrap();
    assert!(bound("lower") < exact && exact < bound("upper"));
    // Pinned as asked, it keeps "only".
    let text = stdout(&["chain", tra.to_str().unwrap(), "--target-states", "1", "--players", "2"]);
    assert!(text.contains(" only: each chance lies between"), "{text}");
}

/// A race whose chain has probabilities of many digits grows its exact numbers by those
/// digits every round: a 2-state chain of 7/1000003 took over a minute for its 20,000 rounds,
/// one of 20-digit probabilities minutes, one of 300 digits hours. The summing now stops
/// where the numbers pass 2^18 bits, and says so.
#[test]
fn a_race_stopped_by_the_size_of_its_numbers_says_so() {
    let dir = scratch("race-size");
    let tra = dir.join("wide.tra");
    // Each turn a player arrives with 1/d: player 1 wins with (1/d) / (1 - (1 - 1/d)^2) = d / (2d - 1).
    let d: rug::Integer = rug::Integer::from(rug::Integer::u_pow_u(10, 100)) + 7;
    std::fs::write(&tra, format!("0 0 {}/{d}\n0 1 1/{d}\n1 1 1\n", rug::Integer::from(&d - 1))).unwrap();
    let args = ["chain", tra.to_str().unwrap(), "--target-states", "1", "--players", "2"];
    // The rounds summed: the first k with d^(2k) past 2^18 bits.
    let rounds =
        (1u32..).find(|&k| { use rug::ops::Pow; rug::Integer::from((&d).pow(2 * k)).significant_bits() } > 1 << 18).unwrap();
    let text = stdout(&args);
    let said = format!(
        "After {} rounds no player has arrived with probability",
        pegchain::render::number::grouped(rounds)
    );
    assert!(text.contains(&said), "{text}");
    assert!(
        text.contains(
            "more than the 10^-30 asked (the race stopped where its exact numbers passed 78,914 digits, the most \
             it carries):"
        ),
        "{text}"
    );
    let v = json(&args);
    assert_eq!(
        (v["race"]["rounds"].as_u64(), v["race"]["cut_short"].as_str()),
        (Some(rounds.into()), Some("size"))
    );
    let exact = rug::Rational::from((d.clone(), rug::Integer::from(2 * &d) - 1));
    let bound = |k: &str| fraction(&v["race"]["chances"][0][k]).parse::<rug::Rational>().unwrap();
    assert!(bound("lower") < exact && exact < bound("upper"));
}

/// A DRN state with no transitions was refused without its line ("state 1 has no
/// transitions"), where the README promises the file and line; now its state line is named.
#[test]
fn a_drn_state_without_transitions_is_named_by_its_line() {
    let dir = scratch("drn-no-transitions");
    let drn = dir.join("dead.drn");
    std::fs::write(&drn, "@type: DTMC\n@nr_states\n3\n@model\nstate 0 init\n\taction 0\n\t\t1 : 1\nstate 1 goal\nstate 2\n\taction 0\n\t\t2 : 1\n")
        .unwrap();
    fails_with(&["chain", drn.to_str().unwrap()], "dead.drn: line 8: state 1 has no transitions");
}

/// With several initial states the variance row summarises each state's variance; the
/// variance of a run from a uniformly drawn initial state also counts the spread of their
/// means. Here T = 0 from state 0 and T ~ geometric(1/2) on 1, 2, ... from state 1 (mean 2,
/// variance 2): each state's variance averages 1, but the mixture has E[T] = 1 and E[T^2] =
/// (2 + 2^2) / 2 = 3, so variance 2.
#[test]
fn the_variance_from_a_uniform_initial_state_counts_the_spread_of_the_means() {
    let dir = scratch("uniform-variance");
    let drn = dir.join("two.drn");
    std::fs::write(
        &drn,
        "@type: DTMC\n@nr_states\n2\n@model\nstate 0 init goal\n\taction 0\n\t\t0 : 1\nstate 1 init\n\taction 0\n\t\t0 : 1/2\n\t\t1 : 1/2\n",
    )
    .unwrap();
    let args = ["chain", drn.to_str().unwrap(), "--target", "goal"];
    let v = json(&args);
    assert_eq!(fraction(&v["target"]["variance_steps"]["average"]), "1");
    assert_eq!(fraction(&v["target"]["variance_steps_uniform"]), "2");
    let text = stdout(&args);
    assert!(
        text.contains(
            "From an initial state drawn uniformly, the steps have variance 2: the states' average variance"
        ),
        "{text}"
    );
    // The distribution is the initial states' average, and says so (the ends did, it did not):
    // T = 0 from state 0, T >= 1 from state 1, so P(T = 0) = 1/2.
    let distribution = stdout(&[&args[..], &["--distribution", "3"]].concat());
    let (_, below) = distribution.split_once("Distribution of the steps").unwrap();
    assert!(below.contains("For an initial state drawn uniformly."), "{distribution}");
    assert!(
        below.lines().any(|l| l.split_whitespace().collect::<Vec<_>>() == ["0", "0.500000", "0.500000"]),
        "{below}"
    );
    // One initial state: the two are one figure, and the sentence is left out.
    std::fs::write(&drn, "@type: DTMC\n@nr_states\n1\n@model\nstate 0 init goal\n\taction 0\n\t\t0 : 1\n")
        .unwrap();
    let v = json(&args);
    assert_eq!(fraction(&v["target"]["variance_steps_uniform"]), "0");
    assert!(!stdout(&args).contains("drawn uniformly"));
}

/// A value beyond a double's range (expected steps of 10^400) had `"decimal": null` in JSON
/// and a `null` cell in CSV; now JSON leaves the decimal out and the CSV cell is empty, while
/// text keeps `1.00000e400`.
#[test]
fn a_decimal_beyond_a_doubles_range_is_left_out() {
    let dir = scratch("beyond-double");
    let tra = dir.join("slow.tra");
    // Leaves state 0 with probability 10^-400: 10^400 steps expected.
    std::fs::write(&tra, format!("2 3\n0 0 0.{}\n0 1 1e-400\n1 1 1\n", "9".repeat(400))).unwrap();
    std::fs::write(dir.join("slow.lab"), "0=\"init\" 1=\"done\"\n0: 0\n1: 1\n").unwrap();
    let args = ["chain", tra.to_str().unwrap(), "--target", "done"];
    let text = stdout(&[&args[..], &["--json"]].concat());
    assert!(!text.contains("null"), "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let steps = &v["target"]["initial"][0]["expected_steps"];
    assert_eq!(fraction(steps), format!("1{}", "0".repeat(400)));
    assert!(steps.get("decimal").is_none(), "{steps}");
    assert_eq!(v["target"]["reach"]["average"]["decimal"], 1.0);
    let csv = stdout(&[&args[..], &["--csv"]].concat());
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(row[..3], ["0", "1", "1.0"]);
    assert_eq!(row[3], format!("1{}", "0".repeat(400)));
    assert_eq!(row[4], "", "expected_steps_decimal");
    assert!(!csv.contains("null"), "{csv}");
    assert!(stdout(&args).contains("1.00000e400"));
}

/// A reward file of another chain under the same prefix (craps' `s.srew`, 9 states, beside
/// the race's `s.tra`, 46) was read: its header `9 7` as state 9's reward 7 (an
/// expected reward of 499/216). Now a header is held to the chain's number of states.
#[test]
fn a_reward_file_of_another_chain_is_refused_by_its_header() {
    let dir = scratch("another-chains-rewards");
    let prefix = dir.join("s");
    let prefix = prefix.to_str().unwrap();
    // (An export over another now removes the part it does not write, so the file is put there.)
    let craps = dir.join("c");
    stdout(&["export", "--game", "craps", "--prism", craps.to_str().unwrap()]);
    stdout(&["export", "--race", "--prism", prefix]);
    std::fs::copy(dir.join("c.srew"), dir.join("s.srew")).unwrap();
    assert!(std::fs::read_to_string(dir.join("s.srew")).unwrap().starts_with("9 7\n"));
    let tra = format!("{prefix}.tra");
    fails_with(
        &["chain", &tra, "--target", "over", "--reward", "s"],
        "s.srew: line 1: the header declares 9 states, but the chain has 46",
    );
    // The same for a transition reward file.
    std::fs::remove_file(dir.join("s.srew")).unwrap();
    std::fs::write(dir.join("s.trew"), "9 1\n0 1 5\n").unwrap();
    fails_with(
        &["chain", &tra, "--target", "over", "--reward", "s"],
        "s.trew: line 1: the header declares 9 states, but the chain has 46",
    );
    // Its own header, and none, are read.
    std::fs::write(dir.join("s.trew"), "46 1\n0 1 5\n").unwrap();
    let v = json(&["chain", &tra, "--target", "over", "--reward", "s"]);
    assert_eq!(fraction(&v["target"]["expected_reward"]["average"]), "5/6");
    std::fs::remove_file(dir.join("s.trew")).unwrap();
    std::fs::write(dir.join("s.srew"), "0 1\n").unwrap();
    let v = json(&["chain", &tra, "--target", "over", "--reward", "s"]);
    assert_eq!(fraction(&v["target"]["expected_reward"]["average"]), "1");
}

/// `--reward` beside `--distribution` or `--players` was dropped from the CSV without a word
/// (the table is P(T = k), or the players' chances); now it is refused before any work, as
/// `--visits` and `--simulate` are. Beside a target alone it is the table's last column.
#[test]
fn csv_refuses_a_reward_its_table_would_leave_out() {
    let herman = fixture("herman5.drn");
    let ask = ["chain", herman.as_str(), "--target", "stable", "--reward", "steps", "--csv"];
    fails_with(
        &[&ask[..], &["--distribution", "2"]].concat(),
        "--csv does not fit --reward: a CSV is one table, here P(T = k) by steps; text, --markdown and \
         --json carry every part",
    );
    fails_with(
        &[&ask[..], &["--players", "2"]].concat(),
        "--csv does not fit --reward: a CSV is one table, here each player's chances",
    );
    let csv = stdout(&ask);
    assert!(csv.starts_with("state,reach,reach_decimal,expected_steps,expected_steps_decimal,variance_steps,variance_steps_decimal,expected_reward,expected_reward_decimal\n0,1,1.0,44/15,2.933333333333333,404/75,5.386666666666667,44/15,2.933333333333333\n"), "{csv}");
    // Without the reward, the distribution and the race keep their tables.
    let csv = stdout(&["chain", &herman, "--target", "stable", "--distribution", "2", "--csv"]);
    assert_eq!(
        csv.lines().next(),
        Some("steps,probability,probability_decimal,cumulative,cumulative_decimal")
    );
    let csv = stdout(&["chain", &herman, "--target", "stable", "--players", "2", "--csv"]);
    assert_eq!(csv.lines().next(), Some("player,lower,at_least,upper,at_most"));
}

/// A closed class's CSV cell was text's shortened prose, `3000 states: 0 1 2 ... 9 ...`, so
/// a program read ten of the 3,000 states; now it lists every state, as JSON does.
#[test]
fn csv_lists_every_state_of_a_closed_class() {
    let dir = scratch("closed-class-csv");
    let tra = dir.join("bigcyc.tra");
    let lines: String = (0..3000).map(|i| format!("{i} {} 1\n", (i + 1) % 3000)).collect();
    std::fs::write(&tra, format!("3000 3000\n{lines}")).unwrap();
    let all: Vec<String> = (0..3000).map(|i| i.to_string()).collect();
    let csv = stdout(&["chain", tra.to_str().unwrap(), "--csv"]);
    assert_eq!(csv, format!("states,labels,probability,decimal\n{},,1,1.0\n", all.join(" ")));
    let v = json(&["chain", tra.to_str().unwrap()]);
    assert_eq!(v["ends"][0]["states"].as_array().unwrap().len(), 3000);
    // Text, for people, names the class by its first states.
    assert!(stdout(&["chain", tra.to_str().unwrap()]).contains("3000 states: 0 1 2 3 4 5 6 7 8 9 ..."));
}

/// Text and Markdown hold every exact value as a fraction beside its decimal: over several
/// initial states the min and max were decimals alone (6.85714 for 48/7), and the
/// distribution of the steps was decimals alone even with --full.
#[test]
fn text_gives_the_min_max_and_with_full_the_distribution_as_fractions() {
    let dir = scratch("chain-fractions");
    let drn = dir.join("two.drn");
    std::fs::write(
        &drn,
        "@type: DTMC\n@parameters\n\n@reward_models\n\n@nr_states\n3\n@nr_choices\n3\n@model\n\
         state 0 init\n\taction 0\n\t\t0 : 4/7\n\t\t2 : 3/7\n\
         state 1 init\n\taction 0\n\t\t1 : 3/5\n\t\t2 : 2/5\n\
         state 2 done\n\taction 0\n\t\t2 : 1\n",
    )
    .unwrap();
    let text = stdout(&["chain", drn.to_str().unwrap(), "--target", "done"]);
    // Steps 7/3 from state 0 and 5/2 from state 1: their average, min and max.
    assert!(
        text.contains("\nexpected steps          29/12 (2.41667)   7/3 (2.33333)   5/2 (2.50000)\n"),
        "{text}"
    );
    let full = stdout(&["game", "gamblers-ruin", "--distribution", "8", "--full"]);
    assert!(full.contains("\n    7  0.0781250   0.140625  5/64             9/64\n"), "{full}");
    let markdown = stdout(&["game", "gamblers-ruin", "--distribution", "8", "--full", "--markdown"]);
    assert!(markdown.contains("\n| 7 | 0.0781250 | 0.140625 | 5/64 | 9/64 |\n"), "{markdown}");
    // Without --full the table stays decimals, as the coach's.
    let plain = stdout(&["game", "gamblers-ruin", "--distribution", "8"]);
    assert!(plain.contains("\n    7  0.0781250   0.140625\n"), "{plain}");
}

/// The plot of a distribution never reached within its bound keeps its axes readable: every
/// bar 0 drew a y axis to 1.2e-12 labelled to thirteen decimals, past the margin; and steps,
/// whole numbers, had ticks between them (0.5, 1.5 for a bound of 5; 2.5 for 25).
#[test]
fn a_distribution_plot_has_readable_ticks() {
    let dir = scratch("chain-plot-ticks");
    let drn = dir.join("island.drn");
    std::fs::write(
        &drn,
        "@type: DTMC\n@parameters\n\n@reward_models\n\n@nr_states\n3\n@nr_choices\n3\n@model\n\
         state 0 init\n\taction 0\n\t\t0 : 1/2\n\t\t1 : 1/2\n\
         state 1 done\n\taction 0\n\t\t1 : 1\n\
         state 2 island\n\taction 0\n\t\t2 : 1\n",
    )
    .unwrap();
    let labels = |svg: &std::path::Path| -> Vec<String> {
        let text = std::fs::read_to_string(svg).unwrap();
        text.split("</text>")
            .filter_map(|part| part.rsplit('>').next())
            .filter(|label| !label.is_empty() && label.chars().all(|c| c.is_ascii_digit() || c == '.'))
            .map(str::to_string)
            .collect()
    };
    let svg = dir.join("island.svg");
    let args = ["chain", drn.to_str().unwrap(), "--target", "island", "--distribution", "5"];
    let text = stdout(&[&args[..], &["--svg", svg.to_str().unwrap()]].concat());
    assert_eq!(labels(&svg), ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0", "0", "1", "2", "3", "4", "5"]);
    // A target never reached has no median, whatever the bound (it said "over 5").
    let never = "median never, 90th percentile never (the target is reached with probability 0)";
    assert!(text.contains(never), "{text}");
    let drawn = std::fs::read_to_string(&svg).unwrap();
    // The note, wrapped in the legend's margin.
    let note = "P(T &lt;= 5) = 0: the target is</text>";
    assert!(drawn.contains(never) && drawn.contains(note), "{drawn}");
    // The swine reaches its win with probability 221/432: a median, and no 90th percentile.
    let race = dir.join("race.drn");
    stdout(&["export", "--race", "--drn", race.to_str().unwrap()]);
    let text = stdout(&["chain", race.to_str().unwrap(), "--target", "swine_wins", "--distribution", "100"]);
    let quantiles = "\nmedian 5, 90th percentile never (the target is reached with probability 0.511574)\n";
    assert!(text.contains(quantiles), "{text}");
    let svg = dir.join("ruin.svg");
    let path = svg.to_str().unwrap();
    // The chart was written silently, where `race --grid --svg` says so and names it in JSON.
    let text = stdout(&["game", "gamblers-ruin", "--distribution", "25", "--svg", path]);
    assert!(text.contains(&format!("\nStep distribution chart written to {path}.\n")), "{text}");
    let v = json(&["game", "gamblers-ruin", "--distribution", "25", "--svg", path]);
    assert_eq!(v["svg"], path);
    assert!(json(&["game", "gamblers-ruin", "--distribution", "25"]).get("svg").is_none());
    let x: Vec<String> = labels(&svg).into_iter().filter(|l| !l.contains('.')).collect();
    assert_eq!(x, ["0", "5", "10", "15", "20", "25"]);
}

/// A path with a line break in it was printed as it is, breaking the line that shows it: the
/// export's line and the chain's title now quote it with its escapes (JSON keeps it whole).
#[test]
fn a_path_with_a_line_break_is_shown_on_one_line() {
    let dir = support::scratch("chain-newline-path");
    let drn = dir.join("a\nb.drn");
    let out = support::pegchain()
        .args(["export", "--game", "craps", "--drn", drn.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.trim_end().lines().count(), 1, "{stdout}");
    assert!(stdout.contains(&format!("{:?}", drn.to_str().unwrap())), "{stdout}");
    let out = support::pegchain().args(["chain", drn.to_str().unwrap()]).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let title = stdout.lines().next().unwrap();
    assert_eq!(title, format!("Markov chain {:?}", drn.to_str().unwrap()));
    let out = support::pegchain().args(["chain", drn.to_str().unwrap(), "--json"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["model"], drn.to_str().unwrap());
}
