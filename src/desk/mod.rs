//! The director's desk (`reversi serve`), a web page on the director's own machine: the
//! web server beside the command line, not inside it (`src/cli/serve.rs` turns the command's
//! arguments into a [`Config`]).
//!
//! The server maps requests to the library's calls (through [`state`]) and answers JSON;
//! the page is three files embedded in the binary. Security (docs/serve.md): the loopback
//! interface only unless `--listen` says otherwise (with a warning); a request whose
//! `Host` is not this server's loopback name and port is refused (421, DNS rebinding);
//! every request that changes something needs the run's token and, when the browser sends
//! an `Origin`, this server's own; bodies are bounded; paths stay inside the served
//! folders.

use std::io::{self, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

mod connections;
mod state;

use state::{Desk, Refusal, Root};

/// The largest request body the desk takes (an uploaded file, a JSON request): 64 MiB.
pub(crate) const MAX_BODY: usize = 64 << 20;

/// The header that carries the run's token.
const TOKEN_HEADER: &str = "x-desk-token";

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const APP_CSS: &str = include_str!("assets/app.css");

/// What a desk serves and how (`reversi serve`'s arguments).
#[derive(Debug)]
pub(crate) struct Config {
    /// Folders (or files) to serve; none: the current folder.
    pub(crate) paths: Vec<PathBuf>,
    /// The port; 0 takes any free port.
    pub(crate) port: u16,
    /// Whether to open the page in the default browser.
    pub(crate) open: bool,
    /// The address to listen on instead of the loopback interface.
    pub(crate) listen: Option<IpAddr>,
    /// How long a connection may send nothing.
    pub(crate) idle_timeout: std::time::Duration,
    /// How long a request may take to arrive whole after its first byte.
    pub(crate) request_timeout: std::time::Duration,
}

/// A line on standard error (a failure to write it is no failure of the desk).
fn note(text: impl std::fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}

/// The server's shared state.
pub(crate) struct Server {
    desk: Mutex<Desk>,
    token: String,
    /// The `Host` values accepted: the loopback names with the port, and `--listen`'s.
    hosts: Vec<String>,
    /// With `--listen` on every interface (`0.0.0.0`, `::`): the port, and then any
    /// address of this machine written as an IP address is accepted too (the page is
    /// opened from another computer by the address it knows). A name is not: DNS
    /// rebinding needs one.
    any_address_on: Option<u16>,
}

impl Server {
    /// Whether `host` (a `Host` header, or an origin without its `http://`) names this
    /// desk.
    fn answers_as(&self, host: &str) -> bool {
        self.hosts.iter().any(|h| h.eq_ignore_ascii_case(host))
            || self
                .any_address_on
                .is_some_and(|port| is_an_address_on(host, port))
    }

    fn desk(&self) -> MutexGuard<'_, Desk> {
        self.desk
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The `Host` values a desk listening on `address` and `port` answers to: the loopback
/// names, and `address` itself when it is neither loopback nor unspecified, each with the
/// port, and on port 80 also without it (a browser leaves the default port out).
fn accepted_hosts(address: IpAddr, port: u16) -> Vec<String> {
    let mut names = vec!["127.0.0.1".to_string(), "localhost".into(), "[::1]".into()];
    if !address.is_loopback() && !address.is_unspecified() {
        names.push(match address {
            IpAddr::V4(ip) => ip.to_string(),
            IpAddr::V6(ip) => format!("[{ip}]"),
        });
    }
    let mut hosts: Vec<String> = names.iter().map(|name| format!("{name}:{port}")).collect();
    if port == 80 {
        hosts.extend(names);
    }
    hosts
}

/// Whether `host` (a `Host` header or an origin's host) is an IP address, not a name, with
/// `port`, and not the unspecified address: what a desk listening on every interface
/// answers to (on port 80 the port may be left out, as browsers do).
fn is_an_address_on(host: &str, port: u16) -> bool {
    let at = match (host.parse::<SocketAddr>(), port) {
        (Ok(at), _) => Some(at),
        (Err(_), 80) => host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .ok()
            .map(|ip| SocketAddr::new(ip, 80)),
        (Err(_), _) => None,
    };
    at.is_some_and(|at| at.port() == port && !at.ip().is_unspecified())
}

/// A fresh random token of 32 hexadecimal digits.
fn new_token() -> io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| io::Error::other(format!("no random token: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Start the desk: a local web page to load, check, repair and save record files, and see
/// the standings (docs/serve.md); it runs until the process is interrupted.
pub(crate) fn run(args: Config) -> io::Result<()> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let roots = paths
        .iter()
        .map(|p| Root::new(p))
        .collect::<io::Result<Vec<_>>>()?;
    let address = args.listen.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(address, args.port))
            .await
            .map_err(|e| {
                io::Error::new(e.kind(), format!("cannot listen on {address}:{}: {e}", args.port))
            })?;
        let bound = listener.local_addr()?;
        let port = bound.port();
        let hosts = accepted_hosts(address, port);
        let url = format!("http://{}/", url_host(bound));
        {
            let mut out = io::stdout().lock();
            writeln!(out, "listening on {url}")?;
            out.flush()?;
        }
        if !address.is_loopback() {
            note(format_args!(
                "warning: listening on {address}, not the loopback interface: anyone who can reach {bound} can read and write the served files through the page"
            ));
        }
        note("note: the desk runs until interrupted (Ctrl-C)");
        let server = Arc::new(Server {
            desk: Mutex::new(Desk::new(roots)),
            token: new_token()?,
            hosts,
            any_address_on: address.is_unspecified().then_some(port),
        });
        if args.open {
            open_browser(&url);
        }
        let listener =
            connections::Bounded::new(listener, args.idle_timeout, args.request_timeout);
        axum::serve(listener, router(server)).await
    })
}

/// The host part of the page's address.
fn url_host(bound: SocketAddr) -> String {
    match bound.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => format!("127.0.0.1:{}", bound.port()),
        IpAddr::V6(ip) if ip.is_unspecified() => format!("[::1]:{}", bound.port()),
        _ => bound.to_string(),
    }
}

/// Opens `url` in the desktop's browser (a program started directly, no shell); a failure
/// is a note, the address is printed anyway.
fn open_browser(url: &str) {
    let program = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(program)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        note(format_args!(
            "note: could not open a browser ({program}: {e}); open {url}"
        ));
    }
}

/// The routes, behind the guard.
pub(crate) fn router(server: Arc<Server>) -> Router {
    Router::new()
        .route("/", get(index))
        .route(
            "/app.js",
            get(|| asset(APP_JS, "text/javascript; charset=utf-8")),
        )
        .route(
            "/app.css",
            get(|| asset(APP_CSS, "text/css; charset=utf-8")),
        )
        .route("/api/info", get(info))
        .route("/api/folder", get(folder))
        .route("/api/files", get(files))
        .route("/api/open", post(open))
        .route("/api/upload", post(upload))
        .route("/api/standings", get(standings))
        .route("/api/event", get(event))
        .route("/api/files/{id}/games", get(games))
        .route("/api/files/{id}/games/{n}", get(game))
        .route("/api/files/{id}/games/{n}/repair", post(repair))
        .route("/api/files/{id}/games/{n}/accept", post(accept))
        .route("/api/files/{id}/games/{n}/tags", post(tags))
        .route("/api/files/{id}/export", post(export))
        .route("/api/files/{id}/download", get(download))
        .route("/api/files/{id}/save", post(save))
        .route("/api/files/{id}/close", post(close))
        .route("/api/files/{id}/set", post(set_on_selection))
        .route("/api/files/{id}/rename", post(rename_on_selection))
        .route("/api/files/{id}/undo", post(undo))
        .route("/api/files/{id}/redo", post(redo))
        .fallback(|| async { refusal(Refusal::new(404, "no such page")) })
        .layer(middleware::map_response(errors_as_json))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(server.clone(), guard))
        .with_state(server)
}

/// Every error answer as JSON (`{"error": ...}`), as the endpoints give theirs: the
/// framework's own refusals (a body that is not the JSON an endpoint takes, a path that is
/// not a number, a body over the limit) come as text otherwise.
async fn errors_as_json(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let body = axum::body::to_bytes(response.into_body(), 64 * 1024)
        .await
        .unwrap_or_default();
    let message = String::from_utf8_lossy(&body).trim().to_string();
    let message = match message.is_empty() {
        true => status.canonical_reason().unwrap_or("error").to_lowercase(),
        false => message,
    };
    (status, Json(json!({ "error": message }))).into_response()
}

/// A JSON error answer.
fn refusal(r: Refusal) -> Response {
    let status = StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, Json(json!({ "error": r.message }))).into_response()
}

fn answer(result: Result<Value, Refusal>) -> Response {
    match result {
        Ok(v) => Json(v).into_response(),
        Err(r) => refusal(r),
    }
}

/// Refuses what does not come from this server's own page: a foreign `Host` (421), a
/// state-changing request without the token or from another origin (403). Adds the
/// headers that keep the page to itself.
async fn guard(State(server): State<Arc<Server>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !server.answers_as(host) {
        return refusal(Refusal::new(
            421,
            format!("this desk answers only as {}", server.hosts[0]),
        ));
    }
    let reads = matches!(*request.method(), Method::GET | Method::HEAD);
    if !reads {
        if let Err(why) = same_origin(&server, headers) {
            return refusal(Refusal::new(403, why));
        }
    }
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
        ),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Whether a state-changing request carries the token and comes from this server's page.
fn same_origin(server: &Server, headers: &HeaderMap) -> Result<(), String> {
    let token = headers.get(TOKEN_HEADER).and_then(|h| h.to_str().ok());
    match token {
        None => return Err("the request has no desk token: use the desk's page".into()),
        Some(t) if !constant_time_eq(t.as_bytes(), server.token.as_bytes()) => {
            return Err("the desk token is wrong: reload the desk's page".into())
        }
        Some(_) => {}
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let ours = origin
            .get(..7)
            .is_some_and(|scheme| scheme.eq_ignore_ascii_case("http://"))
            && server.answers_as(&origin[7..]);
        if !ours {
            return Err(format!(
                "requests from {origin} are refused: use the desk's page"
            ));
        }
    }
    if let Some(site) = headers.get("sec-fetch-site").and_then(|h| h.to_str().ok()) {
        if site == "cross-site" || site == "same-site" {
            return Err("cross-site requests are refused".into());
        }
    }
    Ok(())
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

async fn index(State(server): State<Arc<Server>>) -> Response {
    let page = INDEX_HTML.replace("{{TOKEN}}", &server.token);
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response()
}

async fn asset(text: &'static str, kind: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], text).into_response()
}

/// Runs `work` on the desk on a thread that may block (reading, validating, writing).
async fn on_desk<F>(server: Arc<Server>, work: F) -> Response
where
    F: FnOnce(&mut Desk) -> Result<Value, Refusal> + Send + 'static,
{
    let done = tokio::task::spawn_blocking(move || work(&mut server.desk())).await;
    match done {
        Ok(result) => answer(result),
        Err(e) => refusal(Refusal::new(500, format!("the desk failed: {e}"))),
    }
}

async fn info(State(server): State<Arc<Server>>) -> Response {
    on_desk(server, |desk| {
        Ok(desk.info(json!({
            "body_bytes": MAX_BODY,
            "served_bytes": state::MAX_SERVED,
            "page": PAGE_MAX,
        })))
    })
    .await
}

async fn folder(State(server): State<Arc<Server>>) -> Response {
    let done = tokio::task::spawn_blocking(move || {
        // The lock only long enough to copy the roots: the walk reads the disk.
        let roots = server.desk().roots().to_vec();
        state::folder(&roots)
    })
    .await;
    match done {
        Ok(listing) => Json(listing).into_response(),
        Err(e) => refusal(Refusal::new(500, format!("the desk failed: {e}"))),
    }
}

async fn files(State(server): State<Arc<Server>>) -> Response {
    on_desk(server, |desk| Ok(desk.files())).await
}

#[derive(Deserialize)]
struct OpenRequest {
    #[serde(default)]
    root: usize,
    path: String,
}

async fn open(State(server): State<Arc<Server>>, Json(request): Json<OpenRequest>) -> Response {
    let done = tokio::task::spawn_blocking(move || {
        let (path, shown) = {
            let desk = server.desk();
            let (path, shown) = desk.resolve(request.root, &request.path)?;
            // Opening a loaded file again is that file, edits and all.
            if let Some(summary) = desk.loaded_from(request.root, &path) {
                return Ok(summary);
            }
            (path, shown)
        };
        // Read outside the lock: a big file does not hold up the other requests.
        let loaded = state::load_served(request.root, &path, &shown)?;
        Ok(server.desk().add(loaded))
    })
    .await;
    match done {
        Ok(result) => answer(result),
        Err(e) => refusal(Refusal::new(500, format!("the desk failed: {e}"))),
    }
}

async fn upload(State(server): State<Arc<Server>>, headers: HeaderMap, body: Bytes) -> Response {
    let name = headers
        .get("x-file-name")
        .and_then(|h| h.to_str().ok())
        .map(percent_decode)
        .unwrap_or_else(|| "upload".to_string());
    // The name is shown, never used as a path: only its last part is kept.
    let name = name
        .rsplit(['/', '\\'])
        .next()
        .filter(|n| !n.is_empty())
        .unwrap_or("upload")
        .to_string();
    let done = tokio::task::spawn_blocking(move || {
        let loaded = state::load_upload(&name, body)?;
        Ok(server.desk().add(loaded))
    })
    .await;
    match done {
        Ok(result) => answer(result),
        Err(e) => refusal(Refusal::new(500, format!("the desk failed: {e}"))),
    }
}

/// `%XX` sequences decoded (the page sends the file name URI-encoded); bad ones kept.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                out.push((hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0)) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The most games one page of the list holds.
const PAGE_MAX: usize = 1000;

#[derive(Deserialize)]
struct ListQuery {
    status: Option<String>,
    /// Only the games whose Black or White holds this text (case ignored).
    player: Option<String>,
    #[serde(default)]
    offset: usize,
    limit: Option<usize>,
}

async fn games(
    State(server): State<Arc<Server>>,
    Path(id): Path<usize>,
    Query(q): Query<ListQuery>,
) -> Response {
    on_desk(server, move |desk| {
        desk.games(
            id,
            q.status.as_deref(),
            q.player.as_deref(),
            q.offset,
            q.limit.unwrap_or(200).min(PAGE_MAX),
        )
    })
    .await
}

async fn game(State(server): State<Arc<Server>>, Path((id, n)): Path<(usize, usize)>) -> Response {
    on_desk(server, move |desk| desk.game(id, n)).await
}

async fn repair(
    State(server): State<Arc<Server>>,
    Path((id, n)): Path<(usize, usize)>,
) -> Response {
    let done = tokio::task::spawn_blocking(move || {
        let (game, format, name) = server.desk().for_repair(id, n)?;
        let found = state::search_repair(&game, format, name);
        server.desk().repaired(id, n, found)
    })
    .await;
    match done {
        Ok(result) => answer(result),
        Err(e) => refusal(Refusal::new(500, format!("the desk failed: {e}"))),
    }
}

#[derive(Deserialize)]
struct AcceptRequest {
    #[serde(default)]
    choice: usize,
    /// The file's revision the page saw the game at (a game changed since is 409).
    revision: Option<u64>,
}

async fn accept(
    State(server): State<Arc<Server>>,
    Path((id, n)): Path<(usize, usize)>,
    Json(request): Json<AcceptRequest>,
) -> Response {
    on_desk(server, move |desk| {
        desk.accept(id, n, request.choice, request.revision)
    })
    .await
}

#[derive(Deserialize)]
struct TagsRequest {
    tags: Vec<(String, String)>,
    /// As [`AcceptRequest::revision`].
    revision: Option<u64>,
}

async fn tags(
    State(server): State<Arc<Server>>,
    Path((id, n)): Path<(usize, usize)>,
    Json(request): Json<TagsRequest>,
) -> Response {
    on_desk(server, move |desk| {
        desk.set_tags(id, n, request.tags, request.revision)
    })
    .await
}

#[derive(Deserialize)]
struct ExportRequest {
    format: String,
    #[serde(default)]
    lossy: bool,
}

async fn export(
    State(server): State<Arc<Server>>,
    Path(id): Path<usize>,
    Json(request): Json<ExportRequest>,
) -> Response {
    on_desk(server, move |desk| {
        desk.export(id, &request.format, request.lossy)
            .map(|(_, report, name)| {
                let mut report = report;
                report["download"] = json!(name);
                report
            })
    })
    .await
}

#[derive(Deserialize)]
struct DownloadQuery {
    format: String,
    #[serde(default)]
    lossy: bool,
}

async fn download(
    State(server): State<Arc<Server>>,
    Path(id): Path<usize>,
    Query(q): Query<DownloadQuery>,
) -> Response {
    let done =
        tokio::task::spawn_blocking(move || server.desk().export(id, &q.format, q.lossy)).await;
    match done {
        Ok(Ok((bytes, _, name))) => {
            let disposition = format!("attachment; filename=\"{}\"", ascii_file_name(&name));
            let mut response = Response::new(Body::from(bytes));
            let h = response.headers_mut();
            h.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/octet-stream"),
            );
            if let Ok(v) = HeaderValue::from_str(&disposition) {
                h.insert(header::CONTENT_DISPOSITION, v);
            }
            response
        }
        Ok(Err(r)) => refusal(r),
        Err(e) => refusal(Refusal::new(500, format!("the desk failed: {e}"))),
    }
}

/// A file name for `Content-Disposition`: ASCII letters, digits, `.`, `-`, `_` kept, the
/// rest `_`.
fn ascii_file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[derive(Deserialize)]
struct SaveRequest {
    format: String,
    #[serde(default)]
    lossy: bool,
    name: String,
    #[serde(default)]
    overwrite: bool,
}

async fn save(
    State(server): State<Arc<Server>>,
    Path(id): Path<usize>,
    Json(request): Json<SaveRequest>,
) -> Response {
    on_desk(server, move |desk| {
        desk.save(
            id,
            &request.format,
            request.lossy,
            &request.name,
            request.overwrite,
        )
    })
    .await
}

#[derive(Deserialize)]
struct SetRequest {
    /// `TAG=VALUE`, as `reversi convert --set` takes it.
    set: String,
    /// The games' numbers.
    games: Vec<usize>,
    /// The file's revision the page showed the games at.
    revision: Option<u64>,
}

async fn set_on_selection(
    State(server): State<Arc<Server>>,
    Path(id): Path<usize>,
    Json(request): Json<SetRequest>,
) -> Response {
    on_desk(server, move |desk| {
        desk.set_on_selection(id, &request.set, &request.games, request.revision)
    })
    .await
}

#[derive(Deserialize)]
struct RenameRequest {
    /// The games' numbers.
    games: Vec<usize>,
    /// The file's revision the page showed the games at.
    revision: Option<u64>,
}

async fn rename_on_selection(
    State(server): State<Arc<Server>>,
    Path(id): Path<usize>,
    Json(request): Json<RenameRequest>,
) -> Response {
    with_event_files(server, move |desk, found| {
        desk.rename_on_selection(id, &request.games, request.revision, found)
    })
    .await
}

#[derive(Deserialize)]
struct CloseRequest {
    #[serde(default)]
    discard: bool,
}

async fn close(
    State(server): State<Arc<Server>>,
    Path(id): Path<usize>,
    Json(request): Json<CloseRequest>,
) -> Response {
    on_desk(server, move |desk| {
        let closed = desk.close(id, request.discard);
        if closed.is_ok() {
            state::give_back_freed_memory();
        }
        closed
    })
    .await
}

/// `?revision=N`: the file's revision the page saw (changed since: 409).
#[derive(Deserialize)]
struct Seen {
    revision: Option<u64>,
}

async fn undo(
    State(server): State<Arc<Server>>,
    Path(id): Path<usize>,
    Query(seen): Query<Seen>,
) -> Response {
    on_desk(server, move |desk| desk.travel(id, true, seen.revision)).await
}

async fn redo(
    State(server): State<Arc<Server>>,
    Path(id): Path<usize>,
    Query(seen): Query<Seen>,
) -> Response {
    on_desk(server, move |desk| desk.travel(id, false, seen.revision)).await
}

async fn event(State(server): State<Arc<Server>>) -> Response {
    with_event_files(server, |desk, found| Ok(desk.event_games(found))).await
}

async fn standings(State(server): State<Arc<Server>>) -> Response {
    with_event_files(server, |desk, found| Ok(desk.standings(found))).await
}

/// Runs `work` on the desk with the register and pairings of the served folders, read
/// first outside the desk's lock (no file I/O under it).
async fn with_event_files<F>(server: Arc<Server>, work: F) -> Response
where
    F: FnOnce(&mut Desk, state::EventFiles) -> Result<Value, Refusal> + Send + 'static,
{
    let done = tokio::task::spawn_blocking(move || {
        let roots = server.desk().roots().to_vec();
        let found = state::event_files(&roots);
        work(&mut server.desk(), found)
    })
    .await;
    match done {
        Ok(result) => answer(result),
        Err(e) => refusal(Refusal::new(500, format!("the desk failed: {e}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_port_may_be_left_out_as_browsers_do() {
        let loopback = IpAddr::V4(Ipv4Addr::LOCALHOST);
        assert_eq!(
            accepted_hosts(loopback, 8717),
            ["127.0.0.1:8717", "localhost:8717", "[::1]:8717"]
        );
        // `--port 80`: a browser sends `Host: localhost`.
        let on_80 = accepted_hosts(loopback, 80);
        for host in ["localhost:80", "localhost", "127.0.0.1", "[::1]"] {
            assert!(on_80.iter().any(|h| h == host), "{host}: {on_80:?}");
        }
        let lan: IpAddr = "192.0.2.7".parse().unwrap();
        assert!(accepted_hosts(lan, 80).contains(&"192.0.2.7".to_string()));
        assert!(!accepted_hosts(lan, 8717).contains(&"192.0.2.7".to_string()));
        let v6: IpAddr = "2001:db8::7".parse().unwrap();
        assert!(accepted_hosts(v6, 8717).contains(&"[2001:db8::7]:8717".to_string()));
        // On every interface: addresses, with the port or on 80 without; never a name.
        assert!(is_an_address_on("192.0.2.7:8717", 8717));
        assert!(is_an_address_on("192.0.2.7", 80) && is_an_address_on("[2001:db8::7]", 80));
        assert!(!is_an_address_on("192.0.2.7", 8717));
        assert!(!is_an_address_on("evil.example", 80));
        assert!(!is_an_address_on("0.0.0.0", 80));
    }
}
