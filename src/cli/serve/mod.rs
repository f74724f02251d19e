//! `pegchain serve`: the coach as a local web page. An HTTP server (axum on tokio) serves
//! the page (HTML, CSS and JavaScript inside the binary, no network needed) and a JSON API:
//!
//! - `GET /api/boards`: the boards (holes with their grid coordinates, jumps);
//! - `GET /api/coach?board=B&pegs=A,B,C&policy=uniform`: the coach's answer for a position.
//!
//! A computation runs off the request threads (`spawn_blocking`, at most one per core at a
//! time, and beside them, on a quick lane, one small future per core), within a time budget,
//! and answers are cached (refusals of futures too large too), with the answers for every position
//! one jump ahead where the same pass gives them (a future of fewer than 500,000 positions up
//! to symmetry). The last future valued of each board is kept whole where memory allows
//! (`held`): a position below it (the next jumps of a game) is answered from it without a new
//! search, by a forward pass at most. Bad requests get a 4xx with a one-line JSON error, those
//! hyper refuses before any handler sees them included ([`json_errors`]).

mod addressed;
mod held;
mod json_errors;
mod peer;
mod write_timeout;

use crate::cli::interrupt;
use crate::cli::output::{self, Failure};
use crate::cli::progress::layer_words;
use axum::Router;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use held::{Held, Holding};
use pegchain::input::plain;
use pegchain::render::coach::CoachView;
use pegchain::render::number::quoted;
use pegchain::solitaire::Pegs;
use pegchain::solitaire::coach::Coach;
use pegchain::solitaire::position::{parse_position, play};
use pegchain::{Board, Cancel, Error, Policy};
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The page, whole.
const PAGE: &str = include_str!("page.html");

/// The longest a request waits for a free core before it is answered that the server is busy.
const WAIT: Duration = Duration::from_secs(30);
/// Answers kept (each a JSON text of a few KB).
const CACHE_ENTRIES: usize = 20_000;
/// A future of at most this many positions (up to symmetry; any position of the 15-hole
/// board, the 21-hole board from its full board) is valued at once, in about a tenth of a
/// second at most, beside the long computations rather than behind them: two requests for
/// the English board's full board held both cores for 10-30 s, and a 3-peg position of the
/// smallest triangle waited 29 s behind them. A larger future is found so by a search that
/// stops at this many positions, and the request then waits for a core.
const QUICK_POSITIONS: usize = 200_000;
/// The largest request body read (the API takes none).
const MAX_BODY: usize = 16 * 1024;

/// A request's board, position (its pegs) and policy: what its answer depends on, however
/// the query wrote the position.
type Key = (String, u64, String);

struct Shared {
    boards: Vec<Board>,
    /// The most positions (up to symmetry) one answer may follow, and the most a future may
    /// hold to be kept whole (see [`limits`]).
    max_positions: usize,
    max_kept: usize,
    /// See [`ServeRequest::budget`].
    budget: Duration,
    /// Answers by key, with the refusals of futures too large for the server (as status
    /// and body: they took seconds of search to find, every time).
    cache: Mutex<HashMap<Key, Reply>>,
    /// The answers being computed, each by one request: another request for the same answer
    /// waits for it rather than start the same computation (six requests for the 45-hole
    /// triangle's full board at once took six times the work of one).
    under_way: Mutex<HashMap<Key, tokio::sync::watch::Receiver<Option<Reply>>>>,
    /// What each computation under way is doing, for `/api/progress`.
    progress: Mutex<HashMap<Key, String>>,
    /// The last future valued of each board and policy: a game goes on below it.
    held: Mutex<Holding>,
    /// One permit per core: a computation holds one while it runs, so that many requests for
    /// large positions wait their turn (for at most [`WAIT`]) instead of exhausting memory.
    workers: Arc<tokio::sync::Semaphore>,
    /// One permit per core for the quick lane (futures of at most [`QUICK_POSITIONS`]): a
    /// request finding none free waits for a core.
    quick: Arc<tokio::sync::Semaphore>,
    /// The stop flags of the computations under way (or lately), so that Ctrl-C stops them at
    /// once rather than waiting for their answers.
    computations: Mutex<Vec<std::sync::Weak<std::sync::atomic::AtomicBool>>>,
}

/// What a query of `address` (`/api/coach`, `/api/progress`) takes, for its refusals.
fn usage(address: &str) -> String {
    format!(
        "expected {address}?board=NAME&pegs=A,B,C or ?board=NAME&start=A&moves=F-C-A,D-E-F (and &policy=uniform)"
    )
}

/// Where to listen and which boards to offer.
pub struct ServeRequest {
    pub host: String,
    pub port: u16,
    pub boards: Vec<Board>,
    /// The memory the server may use (bytes), if known: the answers computed side by side
    /// (one per core) share it, and a future too large for an answer's share is refused at
    /// once rather than left to exhaust it.
    pub memory: Option<u64>,
    /// How long a connection may go without sending a whole request head (waiting for its
    /// first request or, kept alive, for the next) before it is closed.
    pub idle_timeout: Duration,
    /// The longest a coach answer's computation may take before the request is answered with
    /// an error, counted once it has a core: behind other answers' computations a request
    /// waits first (for at most [`WAIT`]).
    pub budget: Duration,
}

/// The most positions (up to symmetry) one answer may follow, and the most a future may hold
/// to be kept whole: `memory` is shared by `workers` answers and the futures held, a share
/// each. The first is the coach's own limit (the English board from a full board, 23.5
/// million, takes about 13 s) or less where a share would not hold one answer's peak; the
/// second, what a share holds of a future kept whole.
fn limits(memory: Option<u64>, workers: usize) -> (usize, usize) {
    use pegchain::solitaire::coach::{BYTES_PER_KEPT_POSITION, BYTES_PER_POSITION, MAX_POSITIONS};
    let share = memory.map(|bytes| bytes / (workers as u64 + 1));
    let fits = |bytes| share.map_or(usize::MAX, |share| usize::try_from(share / bytes).unwrap_or(usize::MAX));
    (MAX_POSITIONS.min(fits(BYTES_PER_POSITION)), fits(BYTES_PER_KEPT_POSITION))
}

/// Serves until interrupted; prints the address on stdout first.
pub fn run(req: ServeRequest) -> Result<(), Failure> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error::Invalid(format!("cannot start the server: {}", plain(&e))))?;
    let served = runtime.block_on(serve(req));
    // A computation stopped with the server may still be between two of its checks for the
    // stop; its answer is no longer wanted, so the process does not wait for it.
    runtime.shutdown_timeout(Duration::from_millis(100));
    served
}

async fn serve(req: ServeRequest) -> Result<(), Failure> {
    let cannot = |e: std::io::Error| {
        Error::Invalid(format!("cannot listen on {}: {}", place(&req.host, req.port), plain(&e)))
    };
    let listener = tokio::net::TcpListener::bind((req.host.as_str(), req.port)).await.map_err(cannot)?;
    let local = listener.local_addr().map_err(cannot)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (workers, quick) =
        (Arc::new(tokio::sync::Semaphore::new(cores)), Arc::new(tokio::sync::Semaphore::new(cores)));
    let (cache, progress) = (Mutex::new(HashMap::new()), Mutex::new(HashMap::new()));
    // The connections' memory first, the rest shared by the answers and the futures held.
    let most = most_connections(req.memory);
    let memory = req.memory.map(|bytes| bytes.saturating_sub(most as u64 * CONNECTION_BYTES));
    let (max_positions, max_kept) = limits(memory, cores);
    let held = Mutex::new(Holding::new(max_kept));
    let computations = Mutex::new(Vec::new());
    let shared = Arc::new(Shared {
        boards: req.boards,
        max_positions,
        max_kept,
        budget: req.budget,
        cache,
        under_way: Mutex::new(HashMap::new()),
        progress,
        held,
        workers,
        quick,
        computations,
    });
    let app = Router::new()
        .route("/", get(page))
        .route("/api/boards", get(boards))
        .route("/api/coach", get(coach))
        .route("/api/progress", get(progress_of))
        .fallback(not_found)
        .method_not_allowed_fallback(not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(local.ip(), addressed_here))
        .with_state(shared.clone());
    // The only place a port chosen by the system (--port 0) is told: a server whose address
    // could not be written (a full disk) stops rather than serve where no one can find it.
    output::emit(&format!("pegchain: serving the coach on {}\n", where_to_open(local)))?;
    // A server left alone gives back the memory of the futures it kept.
    let idle = shared.clone();
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(held::IDLE / 10).await;
            if let Ok(mut held) = idle.held.lock() {
                held.let_go_idle(Instant::now());
            }
            give_back_freed_memory();
        }
    });
    let stopping = shared.clone();
    let stop = async move {
        stopped().await;
        stopping.stop_computations();
    };
    serve_connections(listener, app, req.idle_timeout, most, stop).await;
    Ok(())
}

/// Where the server was asked to listen, for a message: the address where the host is an IP
/// address, else the name (anything typed: quoted, a long one cut short) and the port.
fn place(host: &str, port: u16) -> String {
    match host.parse::<std::net::IpAddr>() {
        Ok(ip) => std::net::SocketAddr::new(ip, port).to_string(),
        Err(_) => format!("{} port {port}", quoted(host)),
    }
}

/// The address to open in a browser, and where the server listens when that is not all: an
/// unspecified address (`--host 0.0.0.0` or `::`) is every interface, which no browser opens,
/// so this machine's loopback of the same family is given to open.
fn where_to_open(local: std::net::SocketAddr) -> String {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
    if !local.ip().is_unspecified() {
        return format!("http://{local}/ (Ctrl-C stops it)");
    }
    let loopback = match local.ip() {
        IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::LOCALHOST),
    };
    let open = SocketAddr::new(loopback, local.port());
    format!("http://{open}/ (listening on every interface, {local}; Ctrl-C stops it)")
}

/// The most connections served at once: more wait to be accepted, so that clients holding
/// connections open cannot use up the process's file descriptors (nor, see
/// [`most_connections`], its memory).
const MAX_CONNECTIONS: usize = 512;
/// The fewest connections served at once, whatever the memory: a browser opens about six.
const MIN_CONNECTIONS: usize = 16;
/// The most bytes of a request head read before it is refused (431): a browser's head is a
/// few KB, and an address of 64 KB still fits, to be refused as too long (414). hyper's own
/// default, about 400 KB, let each connection hold about 0.5 MB.
const MAX_HEAD: usize = 80 * 1024;
/// The most memory a connection holds: its head buffer (which grows by doubling, so up to
/// about twice [`MAX_HEAD`]), hyper's write buffer and the task's own, with a margin (181
/// connections each holding 80 KB of a head took 126 KB each under `ulimit -v`).
const CONNECTION_BYTES: u64 = 256 * 1024;

/// The most connections served at once where the server may use `memory` bytes: those a
/// quarter of it holds, within [`MIN_CONNECTIONS`] and [`MAX_CONNECTIONS`]. Their memory was
/// counted nowhere, and 512 clients each holding a large half-sent head aborted a server
/// under `ulimit -v 250000` (a failed allocation).
fn most_connections(memory: Option<u64>) -> usize {
    let fit = |bytes: u64| usize::try_from(bytes / 4 / CONNECTION_BYTES).unwrap_or(usize::MAX);
    memory.map_or(MAX_CONNECTIONS, fit).clamp(MIN_CONNECTIONS, MAX_CONNECTIONS)
}

/// How long answers under way are given to finish once the server is stopped (Ctrl-C): their
/// computations are stopped with it, so their 503s go out at once. Short, since a connection
/// with half a request head sent, or a client reading nothing, holds the stop for all of it
/// (it was 5 s, and held Ctrl-C for 5 s).
const LAST_ANSWERS: Duration = Duration::from_secs(1);

/// Serves `app` on every connection `listener` accepts, `most` at once, until `stop`, as
/// `axum::serve` does, and also closes a connection that sends no whole request head for
/// `idle_timeout` (a client that connects and sends nothing, or a head byte by byte, would
/// otherwise hold it for ever), or reads nothing of its answer for as long.
async fn serve_connections(
    listener: tokio::net::TcpListener,
    app: Router,
    idle_timeout: Duration,
    most: usize,
    stop: impl std::future::Future<Output = ()>,
) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let connections = Arc::new(tokio::sync::Semaphore::new(most));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut stop = std::pin::pin!(stop);
    loop {
        let accepted = tokio::select! {
            () = &mut stop => break,
            accepted = async {
                let permit = connections.clone().acquire_owned().await;
                (permit, listener.accept().await)
            } => accepted,
        };
        let (Ok(permit), Ok((stream, _))) = accepted else {
            // Out of file descriptors, or a connection reset before it was accepted: the
            // next accept may succeed (axum::serve waits likewise).
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        // Each request is told its connection, to see whether its client has gone ([`peer`]).
        let (stream, peer) = peer::Watched::new(stream);
        let app = hyper_util::service::TowerToHyperService::new(app.clone());
        let service =
            hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(peer.clone());
                hyper::service::Service::call(&app, request)
            });
        // An answer the client reads nothing of for as long fails too: the connection is closed.
        let stream = write_timeout::WriteTimeout::new(json_errors::JsonErrors::new(stream), idle_timeout);
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(idle_timeout)
            .max_buf_size(MAX_HEAD)
            // A request whose client then closed its side for writing is answered ([`peer`]).
            .half_close(true)
            .serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A connection that fails (closed by the client, timed out) concerns no one else.
            let _ = connection.await;
            drop(permit);
        });
    }
    // The computations under way were stopped with `stop`, so their answers (a 503) go out at
    // once; a connection still open after LAST_ANSWERS is dropped.
    let _ = tokio::time::timeout(LAST_ANSWERS, graceful.shutdown()).await;
}

async fn page() -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], PAGE).into_response()
}

/// A JSON error of one line.
fn error(status: StatusCode, message: &str) -> Response {
    reply(refusal(status, message))
}

/// A JSON error of one line, as a status and body.
fn refusal(status: StatusCode, message: &str) -> Reply {
    (status, serde_json::json!({ "error": message }).to_string())
}

/// An answer or a refusal: its status and JSON body.
type Reply = (StatusCode, String);

fn reply((status, json): Reply) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], json).into_response()
}

/// Refuses a request addressed by a name a web page elsewhere may have pointed at this
/// machine, or made by another web site's page ([`addressed`]), before any handler sees it;
/// a link to the page followed from another site opens it.
async fn addressed_here(
    State(bound): State<std::net::IpAddr>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    // HTTP/1.1 names its host once (RFC 9112, 3.2): the first of two named hosts was checked
    // and the second left to whoever read it next; an address written whole (absolute form)
    // names it in place of the header.
    let mut named = request.headers().get_all(header::HOST).iter();
    let header_host = named.next().map(|h| h.as_bytes());
    if named.next().is_some() {
        return error(StatusCode::BAD_REQUEST, "the request names its host twice (two Host headers)");
    }
    if header_host.is_none() && request.version() == axum::http::Version::HTTP_11 {
        return error(StatusCode::BAD_REQUEST, "an HTTP/1.1 request names its host (a Host header)");
    }
    let host = request.uri().authority().map(|a| a.as_str().as_bytes()).or(header_host);
    if !addressed::answered(bound, host) {
        return error(
            StatusCode::FORBIDDEN,
            "the server answers requests addressed to its IP address or localhost: another name \
             for this machine is how a web page elsewhere would reach it",
        );
    }
    let headers = request.headers();
    let asked = |name: &str| headers.get(name).map(|h| h.as_bytes());
    let page =
        addressed::opens_the_page(request.uri().path(), asked("sec-fetch-mode"), asked("sec-fetch-dest"));
    if !page && !addressed::from_here(asked("origin"), asked("sec-fetch-site"), host) {
        return error(
            StatusCode::FORBIDDEN,
            "the server answers its own page, and requests typed or sent by tools: not a request \
             from another web site's page",
        );
    }
    next.run(request).await
}

async fn not_found() -> Response {
    error(
        StatusCode::NOT_FOUND,
        "no such page: the page is / and the API is /api/boards, /api/coach and /api/progress",
    )
}

async fn not_allowed() -> Response {
    error(StatusCode::METHOD_NOT_ALLOWED, "the API answers GET requests only")
}

async fn boards(State(shared): State<Arc<Shared>>) -> Response {
    let list: Vec<serde_json::Value> = shared
        .boards
        .iter()
        .map(|b| {
            let triangle = matches!(b.shape(), pegchain::solitaire::board::Shape::Triangle { .. });
            serde_json::json!({
                "name": b.name(),
                "shape": if triangle { "triangle" } else { "grid" },
                "holes": b.holes().iter().map(|h| serde_json::json!({"name": h.name, "x": h.x, "y": h.y})).collect::<Vec<_>>(),
                "jumps": b.jumps().iter().map(|j| [j.from, j.over, j.to]).collect::<Vec<_>>(),
            })
        })
        .collect();
    let body = serde_json::json!({ "boards": list }).to_string();
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CoachQuery {
    board: String,
    /// The position as its pegs, or as jumps played from `start`.
    pegs: Option<String>,
    start: Option<String>,
    #[serde(default)]
    moves: String,
    #[serde(default = "uniform")]
    policy: String,
}

fn uniform() -> String {
    "uniform".into()
}

/// A coach query as axum parses it, or why it could not.
type CoachQueryResult = Result<Query<CoachQuery>, axum::extract::rejection::QueryRejection>;

/// A coach query read and checked: the board, the position and the random player, or the
/// 4xx status and what is wrong. Cheap, so done before any work is queued (a bad request
/// never waits for a core), and the same position written two ways shares one cache entry.
/// The board, position and policy a query of `address` asks for, or its refusal.
fn read_query(
    shared: &Shared,
    address: &str,
    query: CoachQueryResult,
) -> Result<(Board, Pegs, Policy), (StatusCode, String)> {
    let q = match query {
        Ok(Query(q)) => q,
        Err(rejection) => {
            // The parser's reason last: "missing field `board`", "duplicate field `start`".
            let text = rejection.body_text().replace('\n', " ");
            let reason = text.rsplit(": ").next().unwrap_or(&text);
            // An unknown parameter (a misspelt one: `Policy`) was ignored before; its name is
            // the user's, so it is quoted in short, then the parameters taken.
            let unknown = text
                .split_once(": unknown field `")
                .and_then(|(_, rest)| rest.rsplit_once("`, expected one of "));
            let reason = match unknown {
                Some((name, taken)) => {
                    format!("unknown parameter {}; the parameters are {taken}", quoted(name))
                }
                None => reason.to_string(),
            };
            return Err((StatusCode::BAD_REQUEST, format!("{}: {reason}", usage(address))));
        }
    };
    // As the command line finds a board: a built-in one in any case (`Triangle5`), else by the
    // name its file gives it, in any case too (the file's `English` may stand for `english`).
    let named = |name: &str| shared.boards.iter().find(|b| b.name().eq_ignore_ascii_case(name)).cloned();
    let found = named(&q.board).or_else(|| named(&pegchain::solitaire::board::builtin_name(&q.board)?));
    let Some(board) = found else {
        let names: Vec<&str> = shared.boards.iter().map(|b| b.name()).collect();
        let why = format!("unknown board {}; the boards are {}", quoted(&q.board), names.join(", "));
        return Err((StatusCode::NOT_FOUND, why));
    };
    let policy: Policy = q.policy.parse().map_err(|e: String| (StatusCode::BAD_REQUEST, e))?;
    // What is wrong with the query's form is said after the form.
    let position = match (&q.pegs, &q.start) {
        // Jumps given with the pegs would be dropped unplayed, as the command line refuses.
        (Some(_), None) if !q.moves.is_empty() => Err("moves are played from a start, not from pegs"),
        (Some(pegs), None) => Ok(parse_position(&board, pegs)),
        (None, Some(start)) => Ok(board.find_hole(start).and_then(|hole| play(&board, hole, &q.moves))),
        (Some(_), Some(_)) => Err("the position is given by its pegs or by a start, not both"),
        (None, None) if !q.moves.is_empty() => Err("moves are played from a start, and the query gives none"),
        (None, None) => Err("the query gives neither pegs nor a start"),
    };
    let position =
        position.map_err(|wrong| (StatusCode::BAD_REQUEST, format!("{}: {wrong}", usage(address))))?;
    let position = position.map_err(|e| (StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
    Ok((board, position, policy))
}

fn key_of(board: &Board, position: Pegs, policy: Policy) -> Key {
    (board.name().to_string(), position.0, policy.to_string())
}

async fn coach(
    State(shared): State<Arc<Shared>>,
    peer: Option<axum::Extension<peer::Peer>>,
    query: CoachQueryResult,
) -> Response {
    let (board, position, policy) = match read_query(&shared, "/api/coach", query) {
        Ok(read) => read,
        Err((status, why)) => return error(status, &why),
    };
    let key = key_of(&board, position, policy);
    loop {
        if let Some(kept) = shared.kept(&key) {
            return reply(kept);
        }
        match shared.lead_or_follow(&key) {
            // Another request computes this answer: its reply is this one's too. Where it
            // got none (its own client went), the answer is asked for again.
            Role::Follow(mut done) => {
                if done.changed().await.is_ok()
                    && let Some(replied) = done.borrow().clone()
                {
                    return reply(replied);
                }
            }
            Role::Lead(leading) => {
                let replied = match shared.kept(&key) {
                    Some(kept) => Some(kept),
                    None => answer(&shared, peer, &key, board, position, policy).await,
                };
                let Some(replied) = replied else {
                    return error(StatusCode::SERVICE_UNAVAILABLE, "the client has gone");
                };
                let _ = leading.done.send(Some(replied.clone()));
                return reply(replied);
            }
        }
    }
}

/// A request's role for its answer: to compute it, or to wait for the request computing it.
enum Role {
    /// Computing it; the others are sent its reply.
    Lead(Leading),
    /// Waiting: `changed` ends with the reply, or with none once the computing request ends
    /// without one.
    Follow(tokio::sync::watch::Receiver<Option<Reply>>),
}

/// The computation of an answer under way, listed in [`Shared::under_way`] while it lasts.
struct Leading {
    shared: Arc<Shared>,
    key: Key,
    done: tokio::sync::watch::Sender<Option<Reply>>,
}

impl Drop for Leading {
    fn drop(&mut self) {
        let mut under_way = self.shared.under_way.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        under_way.remove(&self.key);
    }
}

/// Computes the answer for `key` (its cache missed), on the quick lane or on a core; None
/// where the client went first.
async fn answer(
    shared: &Arc<Shared>,
    peer: Option<axum::Extension<peer::Peer>>,
    key: &Key,
    board: Board,
    position: Pegs,
    policy: Policy,
) -> Option<Reply> {
    // Cancelled when this handler ends or is dropped: the answer is given, the client has
    // gone, or the budget ran out.
    let stop = StopOnDrop(Cancel::new());
    shared.register(&stop.0);
    if let Some(answered) = quickly(shared, &board, position, policy, &stop.0).await {
        return Some(respond(shared, key, Ok(Ok(answered))));
    }
    let cancel = stop.0.clone();
    let (workers, reporter, key_here) = (shared.workers.clone(), shared.clone(), key.clone());
    let (max_positions, max_kept, budget) = (shared.max_positions, shared.max_kept, shared.budget);
    let work = async move {
        // Cleared when the request ends (answered, refused or cut off), and again when the
        // computation ends, which a cancelled one does soon after.
        let _waiting = Telling::new(&reporter, &key_here, "waiting for a free core");
        on_a_free_core(workers, (WAIT, budget), move || -> Result<Vec<(Key, String)>, Error> {
            let _working = Telling::new(&reporter, &key_here, "starting");
            let shown = (reporter.clone(), key_here.clone(), &board);
            let coach = Coach::new(&board, policy)
                .with_cancel(cancel)
                .with_limit(max_positions)
                .with_keep_limit(max_kept)
                .with_progress(move |p| shown.0.tell(&shown.1, Some(layer_words(shown.2, p))));
            let held = reporter.held(&board, policy);
            if let Some(answer) = held.as_ref().and_then(|h| coach.advise_within(&h.future, position)) {
                return Ok(vec![json_of(&board, policy, &answer?)]);
            }
            // The future kept of this board does not hold the position: it is let go before the
            // new one is valued (freed at once unless another request still reads it), so the
            // two are never in memory together.
            drop(held);
            reporter.let_go(&board, policy);
            let future = coach.future(position)?;
            let answers = answers_within(&coach, &future, position, &board, policy);
            reporter.hold(Held { board: board.name().to_string(), policy, future });
            answers
        })
        .await
    };
    // A client gone (its connection reset) reads no answer: its work is stopped.
    let gone = async {
        loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if peer.as_ref().is_some_and(|peer| peer.gone()) {
                return;
            }
        }
    };
    let answered = tokio::select! {
        answered = work => answered,
        () = gone => return None,
    };
    let replied = respond(shared, key, answered);
    drop(stop);
    Some(replied)
}

/// A computation's outcome as the reply; its answers are cached.
type Answered = Result<Result<Result<Vec<(Key, String)>, Error>, tokio::task::JoinError>, Cut>;

fn respond(shared: &Shared, key: &Key, answered: Answered) -> Reply {
    let cached = |entries: Vec<(Key, Reply)>| {
        let replied = entries[0].1.clone();
        if let Ok(mut cache) = shared.cache.lock() {
            if cache.len() + entries.len() > CACHE_ENTRIES {
                cache.clear();
            }
            cache.extend(entries);
        }
        replied
    };
    match answered {
        Ok(Ok(Ok(answers))) => {
            cached(answers.into_iter().map(|(key, json)| (key, (StatusCode::OK, json))).collect())
        }
        Ok(Ok(Err(_))) if interrupt::token().is_cancelled() => {
            refusal(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping")
        }
        Ok(Ok(Err(e @ Error::FutureTooLarge(_)))) => {
            cached(vec![(key.clone(), refusal(StatusCode::UNPROCESSABLE_ENTITY, &e.to_string()))])
        }
        Ok(Ok(Err(e))) => refusal(StatusCode::UNPROCESSABLE_ENTITY, &e.to_string()),
        Ok(Err(_)) => refusal(StatusCode::INTERNAL_SERVER_ERROR, "the computation failed"),
        Err(Cut::OverBudget) => {
            let why = format!(
                "the answer takes longer than the server's budget of {} s (serve --budget SECONDS sets it)",
                shared.budget.as_secs()
            );
            refusal(StatusCode::SERVICE_UNAVAILABLE, &why)
        }
        Err(Cut::Stopping) => refusal(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping"),
        Err(Cut::Busy) => {
            let why = format!(
                "every core has been busy with other answers for {} s: try again later",
                WAIT.as_secs()
            );
            refusal(StatusCode::SERVICE_UNAVAILABLE, &why)
        }
    }
}

/// A position whose future holds at most [`QUICK_POSITIONS`] positions, answered at once on
/// a core of the quick lane; None where the future is larger (found so by a search stopped
/// at that size) or every quick core is busy: the request then waits for a core. A future
/// valued here is not held: valuing it again takes no longer.
async fn quickly(
    shared: &Arc<Shared>,
    board: &Board,
    position: Pegs,
    policy: Policy,
    cancel: &Cancel,
) -> Option<Result<Vec<(Key, String)>, Error>> {
    let permit = shared.quick.clone().try_acquire_owned().ok()?;
    let (board, cancel, max_kept) = (board.clone(), cancel.clone(), shared.max_kept);
    let limit = QUICK_POSITIONS.min(shared.max_positions);
    let answered = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let coach =
            Coach::new(&board, policy).with_cancel(cancel).with_limit(limit).with_keep_limit(max_kept);
        match coach.future(position) {
            Err(Error::FutureTooLarge(_)) => None,
            Err(e) => Some(Err(e)),
            Ok(future) => Some(answers_within(&coach, &future, position, &board, policy)),
        }
    });
    answered.await.ok().flatten()
}

/// The answer for `position`, the root of `future`, and, where the future keeps every
/// distribution, those of the positions one jump ahead, for the cache: the next click needs
/// no core (a future past the keep limit holds no layer below the children).
fn answers_within(
    coach: &Coach,
    future: &pegchain::solitaire::coach::Future,
    position: Pegs,
    board: &Board,
    policy: Policy,
) -> Result<Vec<(Key, String)>, Error> {
    let root = coach.advise_within(future, position).expect("a future holds its root")?;
    let mut answers = vec![json_of(board, policy, &root)];
    if future.keeps_distributions() {
        for j in &root.jumps {
            let child = position.without(j.from).without(j.over).with(j.to);
            if let Some(answer) = coach.advise_within(future, child) {
                answers.push(json_of(board, policy, &answer?));
            }
        }
    }
    Ok(answers)
}

/// An answer's cache key and JSON text.
fn json_of(board: &Board, policy: Policy, advice: &pegchain::solitaire::coach::Advice) -> (Key, String) {
    let view = CoachView::new(board, &policy.to_string(), advice);
    (key_of(board, advice.position, policy), pegchain::render::json(&view))
}

/// Why a request got no answer from its computation.
#[derive(Debug, PartialEq)]
enum Cut {
    /// No core was free within the wait.
    Busy,
    /// The computation took longer than the budget.
    OverBudget,
    /// The server is stopping: a request still waiting for a core was given no answer at
    /// all once the last answers' second ran out.
    Stopping,
}

/// Runs `compute` off the request threads once one of `workers` is free, waiting for it at most
/// `wait` and then computing for at most `budget`. One budget for both let a request that
/// waited 24 s for a core be cut off after 6 s of work, and a small answer queued behind two
/// large ones be reported as over the budget.
async fn on_a_free_core<T: Send + 'static>(
    workers: Arc<tokio::sync::Semaphore>,
    (wait, budget): (Duration, Duration),
    compute: impl FnOnce() -> T + Send + 'static,
) -> Result<Result<T, tokio::task::JoinError>, Cut> {
    let permit = tokio::select! {
        permit = tokio::time::timeout(wait, workers.acquire_owned()) => permit.map_err(|_| Cut::Busy)?,
        () = stopped() => return Err(Cut::Stopping),
    };
    let computed = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let computed = compute();
        give_back_freed_memory();
        computed
    });
    tokio::time::timeout(budget, computed).await.map_err(|_| Cut::OverBudget)
}

/// Ends once the server is asked to stop (Ctrl-C or a signal), seen within a tenth of a second.
async fn stopped() {
    while !interrupt::token().is_cancelled() {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Hands the memory a computation freed back to the system. Its blocks under 4 MB come from
/// the C allocator's arenas, which keep what is freed: a stopped English answer left the
/// server holding 0.8 GB, and stopped ones on two boards about 2 GB, for good.
fn give_back_freed_memory() {
    // SAFETY: malloc_trim only releases free memory of the allocator's own arenas.
    #[cfg(target_env = "gnu")]
    unsafe {
        libc::malloc_trim(0);
    }
}

impl Shared {
    /// The answer kept for `key`, if any.
    fn kept(&self, key: &Key) -> Option<Reply> {
        self.cache.lock().ok()?.get(key).cloned()
    }

    /// Leads the computation of `key`'s answer, or follows the request that leads it.
    fn lead_or_follow(self: &Arc<Self>, key: &Key) -> Role {
        let mut under_way = self.under_way.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(done) = under_way.get(key) {
            return Role::Follow(done.clone());
        }
        let (done, waiting) = tokio::sync::watch::channel(None);
        under_way.insert(key.clone(), waiting);
        Role::Lead(Leading { shared: self.clone(), key: key.clone(), done })
    }

    /// Lists a computation's stop flag, forgetting those of computations that have ended; a
    /// computation asked for while the server is stopping (on a connection still open) is
    /// stopped at once. Under the lock [`Shared::stop_computations`] takes, so that none
    /// slips between the two.
    fn register(&self, cancel: &Cancel) {
        if let Ok(mut computations) = self.computations.lock() {
            if interrupt::token().is_cancelled() {
                cancel.cancel();
            }
            computations.retain(|flag| flag.strong_count() > 0);
            computations.push(Arc::downgrade(&cancel.flag()));
        }
    }

    /// Stops every computation under way: the server is stopping.
    fn stop_computations(&self) {
        if let Ok(computations) = self.computations.lock() {
            for flag in computations.iter().filter_map(std::sync::Weak::upgrade) {
                flag.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
    }

    /// The future held of `board` under `policy`, if any.
    fn held(&self, board: &Board, policy: Policy) -> Option<Arc<Held>> {
        self.held.lock().ok()?.of(board.name(), policy, Instant::now())
    }

    /// Lets go of the future held of `board` under `policy`.
    fn let_go(&self, board: &Board, policy: Policy) {
        if let Ok(mut holding) = self.held.lock() {
            holding.let_go(board.name(), policy);
        }
    }

    /// Holds `held` in place of the future held before of its board and policy.
    fn hold(&self, held: Held) {
        if let Ok(mut holding) = self.held.lock() {
            holding.keep(held, Instant::now());
        }
    }

    /// Sets (or, with None, clears) what the computation for `key` is doing.
    fn tell(&self, key: &Key, what: Option<String>) {
        if let Ok(mut progress) = self.progress.lock() {
            match what {
                Some(text) => progress.insert(key.clone(), text),
                None => progress.remove(key),
            };
        }
    }
}

/// Says what the computation for a key is doing, and clears it when dropped.
struct Telling(Arc<Shared>, Key);

impl Telling {
    fn new(shared: &Arc<Shared>, key: &Key, what: &str) -> Telling {
        shared.tell(key, Some(what.to_string()));
        Telling(shared.clone(), key.clone())
    }
}

impl Drop for Telling {
    fn drop(&mut self) {
        self.0.tell(&self.1, None);
    }
}

/// `GET /api/progress` with a coach request's query: `{"working": true, "progress": "..."}`
/// while its answer is being computed, else `{"working": false}`.
async fn progress_of(State(shared): State<Arc<Shared>>, query: CoachQueryResult) -> Response {
    let (board, position, policy) = match read_query(&shared, "/api/progress", query) {
        Ok(read) => read,
        Err((status, why)) => return error(status, &why),
    };
    let key = key_of(&board, position, policy);
    let now = shared.progress.lock().ok().and_then(|p| p.get(&key).cloned());
    let body = match now {
        Some(text) => serde_json::json!({ "working": true, "progress": text }),
        None => serde_json::json!({ "working": false }),
    };
    ([(header::CONTENT_TYPE, "application/json")], body.to_string()).into_response()
}

/// Cancels its token when dropped, so work asked for by a request stops with the request.
struct StopOnDrop(Cancel);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::{CONNECTION_BYTES, Cut, limits, most_connections, on_a_free_core, where_to_open};
    use std::sync::Arc;
    use std::time::Duration;

    #[tokio::test]
    async fn the_budget_counts_the_computation_not_the_wait_for_a_core() {
        let ms = Duration::from_millis;
        let workers = Arc::new(tokio::sync::Semaphore::new(1));
        let work = |took| move || std::thread::sleep(ms(took));
        // The one core busy for 300 ms, then 300 ms of work: within a budget of 400 ms, which
        // the wait and the work together would pass.
        let busy = workers.clone().acquire_owned().await.unwrap();
        tokio::spawn(async move {
            tokio::time::sleep(ms(300)).await;
            drop(busy);
        });
        let answered = on_a_free_core(workers.clone(), (ms(1000), ms(400)), work(300)).await;
        assert_eq!(answered.map(|done| done.is_ok()), Ok(true));
        // Work past the budget, and a core not free within the wait.
        let answered = on_a_free_core(workers.clone(), (ms(1000), ms(100)), work(300)).await;
        assert_eq!(answered.err(), Some(Cut::OverBudget));
        let _busy = workers.clone().acquire_owned().await.unwrap();
        let answered = on_a_free_core(workers.clone(), (ms(100), ms(1000)), work(0)).await;
        assert_eq!(answered.err(), Some(Cut::Busy));
    }

    #[test]
    fn the_connections_served_at_once_fit_a_quarter_of_the_memory() {
        assert_eq!(most_connections(None), 512);
        assert_eq!(most_connections(Some(20_000_000_000)), 512);
        // `ulimit -v 250000`: a budget of about 190 MB, a quarter of it for 181 connections.
        let most = most_connections(Some(190_000_000));
        assert_eq!(most, 181);
        assert!(most as u64 * CONNECTION_BYTES <= 190_000_000 / 4);
        assert_eq!(most_connections(Some(0)), 16);
    }

    #[test]
    fn an_address_on_every_interface_is_opened_on_loopback() {
        let at = |address: &str| where_to_open(address.parse().unwrap());
        assert_eq!(at("127.0.0.1:8000"), "http://127.0.0.1:8000/ (Ctrl-C stops it)");
        assert_eq!(at("192.168.1.7:80"), "http://192.168.1.7:80/ (Ctrl-C stops it)");
        assert_eq!(
            at("0.0.0.0:8000"),
            "http://127.0.0.1:8000/ (listening on every interface, 0.0.0.0:8000; Ctrl-C stops it)"
        );
        assert_eq!(
            at("[::]:8000"),
            "http://[::1]:8000/ (listening on every interface, [::]:8000; Ctrl-C stops it)"
        );
    }
    use pegchain::solitaire::coach::{BYTES_PER_KEPT_POSITION, BYTES_PER_POSITION, MAX_POSITIONS};

    #[test]
    fn each_answer_and_the_future_held_get_a_share_of_the_memory() {
        assert_eq!(limits(None, 2), (MAX_POSITIONS, usize::MAX));
        // 20 GB shared by two answers and the future held: the coach's own limit holds, and
        // the English board's future from a full board (23.5 million positions) is kept whole.
        let (answer, kept) = limits(Some(20_000_000_000), 2);
        assert_eq!(answer, MAX_POSITIONS);
        assert!(kept > 23_500_000, "{kept}");
        // 3 GB shared by three: 1 GB each.
        assert_eq!(
            limits(Some(3_000_000_000), 2),
            (
                (1_000_000_000 / BYTES_PER_POSITION) as usize,
                (1_000_000_000 / BYTES_PER_KEPT_POSITION) as usize
            )
        );
        assert_eq!(limits(Some(0), 0), (0, 0));
    }
}
