//! `reversi serve`: the director's desk (`src/desk/`), started from the command line.

use std::net::IpAddr;
use std::path::PathBuf;

use crate::desk;

/// Start the desk: a local web page to load, check, repair and save record files, and see
/// the standings (docs/serve.md).
///
/// The page lists the record files of the folders given (default: the current folder),
/// takes files dropped on it, and writes new files only beside the originals.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Folders (or files) to serve; default: the current folder.
    paths: Vec<PathBuf>,
    /// Port on the loopback interface; 0 takes any free port (the first line printed says
    /// which).
    #[arg(long, default_value_t = 8717)]
    port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// Listen on this address instead of the loopback interface (127.0.0.1). Anyone who
    /// can reach the address can then use the page: only on a network you trust.
    #[arg(long, value_name = "ADDRESS")]
    listen: Option<IpAddr>,
    /// Close a connection whose peer sends nothing for this many seconds (a request
    /// trickled in, a connection left open; a fraction such as 0.5 is taken); at most 64
    /// connections are served at once.
    #[arg(long, value_name = "SECONDS", default_value = "20", value_parser = idle_seconds)]
    idle_timeout: std::time::Duration,
    /// Close a connection whose request (its headers and body) has not arrived whole this
    /// many seconds after its first byte (a request trickled in a byte at a time).
    #[arg(long, value_name = "SECONDS", default_value = "120", value_parser = idle_seconds)]
    request_timeout: std::time::Duration,
}

/// `--idle-timeout`, `--request-timeout`: seconds, from 0.1 to 3600.
fn idle_seconds(text: &str) -> Result<std::time::Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("expected a number of seconds, but found `{text}`"))?;
    if !(0.1..=3600.0).contains(&seconds) {
        return Err(format!("expected 0.1 to 3600 seconds, but found {text}"));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

pub(crate) fn run(args: Args) -> std::io::Result<u8> {
    desk::run(desk::Config {
        paths: args.paths,
        port: args.port,
        open: args.open,
        listen: args.listen,
        idle_timeout: args.idle_timeout,
        request_timeout: args.request_timeout,
    })?;
    Ok(super::exit::OK)
}
