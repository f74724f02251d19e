//! Snapshots of the race's renderings on hand-built results (hyperfine's habit): a two-turn
//! game typed in here, with and without a simulation, an endless one whose fractions are too
//! long for text, a grid of six cells and a sweep over two lengths.

use super::{GameView, GridView, SweepView, grid_svg};
use crate::race::{CrossCheck, Grid, GridCell, RaceReport, Rules, Setup, Simulation, TurnRow, Turns};
use crate::render::{Format, Report, Style, render};
use rug::{Integer, Rational};
use std::collections::BTreeMap;

fn r(n: i64, d: i64) -> Rational {
    Rational::from((n, d))
}

/// A game over in one turn (the butcher catches up with 1/6, the swine escapes with 1/3) or
/// in two (1/4 each).
fn short_game(length: u32) -> RaceReport {
    let rows = vec![
        TurnRow { turns: 1, swine: r(1, 3), butcher: r(1, 6) },
        TurnRow { turns: 2, swine: r(1, 4), butcher: r(1, 4) },
    ];
    let turns = Turns {
        stay: Rational::new(),
        mean: r(3, 2),
        variance: r(1, 4),
        mean_if_swine_wins: Some(r(10, 7)),
        mean_if_butcher_wins: Some(r(8, 5)),
        shortest: 1,
        median: Some(1),
        percentile_90: Some(2),
        longest: Some(2),
        rows,
        tail: Rational::new(),
    };
    let setup = Setup { length, swine: 7, butcher: 1 };
    RaceReport { setup, swine: r(7, 12), butcher: r(5, 12), by_moves: BTreeMap::new(), turns }
}

/// A game a roll may leave where it is: no longest game, and fractions of 60 digits.
fn endless_game() -> RaceReport {
    let mut g = short_game(12);
    let huge = Rational::from((Integer::from(1), Integer::from(Integer::u_pow_u(3, 120))));
    g.turns.stay = r(1, 6);
    g.turns.longest = None;
    g.turns.mean_if_butcher_wins = None;
    g.turns.tail = huge.clone();
    g.turns.rows[1].butcher -= &huge;
    g.butcher -= huge;
    g
}

fn simulation() -> (Simulation, CrossCheck) {
    let sim = Simulation { trials: 10_000, seed: 4, swine_wins: 5_850, turns: 15_020, turns_squared: 25_000 };
    let check = CrossCheck {
        estimate: 0.585,
        interval: (0.5753, 0.5946),
        z: Some(0.2035),
        mean_turns: 1.502,
        mean_turns_ci95: Some((1.492, 1.512)),
        mean_turns_z: Some(0.4),
    };
    (sim, check)
}

fn all_formats(view: &impl Report, style: Style) -> String {
    [Format::Text, Format::Markdown, Format::Json, Format::Csv]
        .map(|f| format!("==== {f:?}\n{}", render(view, f, style).expect("every format fits")))
        .join("\n")
}

#[test]
fn race_game() {
    let view = GameView::new(&Rules::default_game(), &short_game(12), None);
    insta::assert_snapshot!(all_formats(&view, Style::default()));
}

#[test]
fn race_game_with_a_simulation() {
    let sim = simulation();
    let view = GameView::new(&Rules::default_game(), &short_game(12), Some(&sim));
    insta::assert_snapshot!(all_formats(&view, Style::default()));
}

#[test]
fn race_game_abbreviates_long_fractions_in_text_only() {
    let view = GameView::new(&Rules::default_game(), &endless_game(), None);
    insta::assert_snapshot!(render(&view, Format::Text, Style::default()).expect("text"));
    let full = render(&view, Format::Text, Style { full_fractions: true }).expect("text");
    let whole = Integer::from(Integer::u_pow_u(3, 120)).to_string();
    assert!(full.contains(&whole), "{full}");
    for format in [Format::Json, Format::Csv] {
        assert!(render(&view, format, Style::default()).expect("fits").contains(&whole), "{format:?}");
    }
    let json = render(&view, Format::Json, Style::default()).expect("json");
    assert!(
        !json.contains("\"longest\"") && !json.contains("mean_if_butcher_wins") && !json.contains("null")
    );
}

fn grid() -> Grid {
    let cell = |swine, butcher, p| GridCell { swine, butcher, p };
    Grid {
        length: 5,
        cells: vec![
            cell(2, 1, r(29, 81)),
            cell(3, 1, r(25, 54)),
            cell(3, 2, r(25, 54)),
            cell(4, 1, r(5, 9)),
            cell(4, 2, r(5, 9)),
            cell(4, 3, r(5, 9)),
        ],
    }
}

#[test]
fn race_grid() {
    let view = GridView::new(&Rules::default_game(), &grid(), None);
    insta::assert_snapshot!(all_formats(&view, Style::default()));
}

#[test]
fn race_grid_heat_map() {
    let view = GridView::new(&Rules::default_game(), &grid(), Some("grid.svg".into()));
    let svg = grid_svg(&view, Some((3, 1)));
    assert_eq!(svg.matches("<title>").count(), 6);
    assert!(svg.contains("<title>swine 3, butcher 1: 25/54 = 0.462963</title>"), "{svg}");
    assert!(svg.contains("the butcher's start square") && svg.contains("the swine's start square"));
    assert!(svg.contains("swine 3, butcher 1</text>"), "the rules' start is marked: {svg}");
    insta::assert_snapshot!(svg);
}

#[test]
fn race_sweep() {
    let mut longer = endless_game();
    longer.setup.length = 13;
    let view = SweepView::new(&Rules::default_game(), &[short_game(12), longer]);
    insta::assert_snapshot!(all_formats(&view, Style::default()));
}
