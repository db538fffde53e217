//! The runner's side of the engine protocol (`spec/engine-protocol.md`): a line channel to
//! an engine with a timeout per answer, the handshake, and the engine as a child process.
//! [`compare`](super::compare) plays scenarios through it; [`serve`](super::serve) is the
//! other side, for the library's own engine.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use super::facets::Supports;

/// The version of the protocol this runner speaks (`protocol 1`).
pub const PROTOCOL: u32 = 1;

/// How long the runner waits for an answer unless told otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest answer line read; a longer one is cut there.
const MAX_LINE: u64 = 1 << 20;

/// The most lines a handshake may have before `ready`.
const MAX_HANDSHAKE_LINES: usize = 1000;

/// Why the runner cannot go on with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The engine could not be started.
    Spawn(String),
    /// No answer within the timeout.
    Timeout {
        /// The command asked.
        command: String,
        /// The timeout.
        timeout: Duration,
    },
    /// The engine closed its output or input: it exited (or closed them).
    Closed {
        /// The command asked.
        command: String,
        /// What became of the process, when known (`exited with status 3`).
        status: Option<String>,
    },
    /// Reading or writing failed otherwise (an answer that is not UTF-8, ...).
    Io {
        /// The command asked.
        command: String,
        /// What went wrong.
        message: String,
    },
    /// The handshake's answers do not follow the protocol.
    Handshake(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(m) => write!(f, "the engine could not be started: {m}"),
            EngineError::Timeout { command, timeout } => write!(
                f,
                "the engine did not answer `{command}` within {} s (--timeout)",
                timeout.as_secs_f64()
            ),
            EngineError::Closed { command, status } => {
                write!(f, "the engine exited before answering `{command}`")?;
                match status {
                    Some(s) => write!(f, " ({s})"),
                    None => Ok(()),
                }
            }
            EngineError::Io { command, message } => {
                write!(f, "talking to the engine (`{command}`): {message}")
            }
            EngineError::Handshake(m) => write!(f, "the engine's handshake: {m}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// A line channel to an engine: commands written to its input, answers read from its
/// output by a thread, so that every answer can be waited for with a timeout.
pub struct Channel {
    answers: Receiver<io::Result<String>>,
    input: Box<dyn Write + Send>,
    timeout: Duration,
}

impl std::fmt::Debug for Channel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Channel")
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl Channel {
    /// A channel writing commands to `input` and reading answers from `output`, waiting at
    /// most `timeout` for each answer. The reading thread ends when `output` ends.
    pub fn new(
        output: impl Read + Send + 'static,
        input: impl Write + Send + 'static,
        timeout: Duration,
    ) -> Channel {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(output);
            loop {
                let mut line = String::new();
                let read = reader.by_ref().take(MAX_LINE).read_line(&mut line);
                let end = !matches!(read, Ok(n) if n > 0);
                let sent = match read {
                    Ok(0) => tx.send(Err(io::ErrorKind::UnexpectedEof.into())),
                    Ok(_) => {
                        let trimmed = line.trim_end_matches(['\n', '\r']).to_owned();
                        tx.send(Ok(trimmed))
                    }
                    Err(e) => tx.send(Err(e)),
                };
                if end || sent.is_err() {
                    break;
                }
            }
        });
        Channel {
            answers: rx,
            input: Box::new(input),
            timeout,
        }
    }

    /// Writes one command line.
    pub fn send(&mut self, command: &str) -> Result<(), EngineError> {
        let written = writeln!(self.input, "{command}").and_then(|()| self.input.flush());
        written.map_err(|e| match e.kind() {
            io::ErrorKind::BrokenPipe => EngineError::Closed {
                command: command.to_owned(),
                status: None,
            },
            _ => EngineError::Io {
                command: command.to_owned(),
                message: e.to_string(),
            },
        })
    }

    /// Waits for the next answer line to `command`.
    pub fn answer(&mut self, command: &str) -> Result<String, EngineError> {
        match self.answers.recv_timeout(self.timeout) {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(e)) if e.kind() == io::ErrorKind::UnexpectedEof => Err(EngineError::Closed {
                command: command.to_owned(),
                status: None,
            }),
            Ok(Err(e)) => Err(EngineError::Io {
                command: command.to_owned(),
                message: e.to_string(),
            }),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout {
                command: command.to_owned(),
                timeout: self.timeout,
            }),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Closed {
                command: command.to_owned(),
                status: None,
            }),
        }
    }

    /// Sends `command` and waits for its one answer line.
    pub fn ask(&mut self, command: &str) -> Result<String, EngineError> {
        self.send(command)?;
        self.answer(command)
    }
}

/// An engine after the handshake: its name and what it declares it plays.
#[derive(Debug)]
pub struct Engine {
    channel: Channel,
    /// The name the engine gave (`name ...`), or `engine`.
    pub name: String,
    /// Its `supports` lines.
    pub supports: Supports,
}

impl Engine {
    /// The handshake: sends `protocol 1` and reads `name`, `supports` and other lines up
    /// to `ready VERSION`, which must be 1.
    pub fn handshake(mut channel: Channel) -> Result<Engine, EngineError> {
        let hello = format!("protocol {PROTOCOL}");
        channel.send(&hello)?;
        let mut name = String::from("engine");
        let mut supports = Supports::default();
        for _ in 0..MAX_HANDSHAKE_LINES {
            let line = channel.answer(&hello)?;
            let (word, rest) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
            match word {
                "name" => name = rest.trim().to_owned(),
                "supports" => supports.add(rest).map_err(EngineError::Handshake)?,
                "ready" if rest.trim() == PROTOCOL.to_string() => {
                    return Ok(Engine {
                        channel,
                        name,
                        supports,
                    })
                }
                "ready" => {
                    return Err(EngineError::Handshake(format!(
                        "the engine speaks protocol `{}`, this runner {PROTOCOL}",
                        rest.trim()
                    )))
                }
                "error" => {
                    return Err(EngineError::Handshake(format!(
                        "the engine answered `{line}` to `{hello}`"
                    )))
                }
                // Lines of later versions of the protocol, and comments.
                _ => {}
            }
        }
        Err(EngineError::Handshake(format!(
            "no `ready {PROTOCOL}` in the first {MAX_HANDSHAKE_LINES} lines"
        )))
    }

    /// Sends `command` and waits for its answer.
    pub fn ask(&mut self, command: &str) -> Result<String, EngineError> {
        self.channel.ask(command)
    }

    /// Sends `quit` (the engine should exit); a closed engine is not an error here.
    pub fn quit(&mut self) {
        let _ = self.channel.send("quit");
    }
}

/// An engine running as a child process, started from a shell command line. Dropping it
/// sends `quit`, waits a moment, then kills the process (and its process group on Unix,
/// so a shell's children go too).
#[derive(Debug)]
pub struct EngineProcess {
    child: Child,
    /// The engine, after the handshake.
    pub engine: Engine,
}

impl EngineProcess {
    /// Starts `command` with the shell (`sh -c`; `cmd /C` on Windows), its standard input
    /// and output the protocol's, its standard error the runner's, and shakes hands.
    pub fn spawn(command: &str, timeout: Duration) -> Result<EngineProcess, EngineError> {
        let mut cmd = shell(command);
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("`{command}`: {e}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            kill(&mut child);
            return Err(EngineError::Spawn(format!("`{command}`: no pipes")));
        };
        let channel = Channel::new(stdout, stdin, timeout);
        match Engine::handshake(channel) {
            Ok(engine) => Ok(EngineProcess { child, engine }),
            Err(e) => {
                let e = with_status(e, &mut child);
                kill(&mut child);
                Err(e)
            }
        }
    }

    /// Adds what became of the process to an error of a closed engine.
    pub fn explain(&mut self, e: EngineError) -> EngineError {
        with_status(e, &mut self.child)
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.engine.quit();
        for _ in 0..20 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                break;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        kill(&mut self.child);
    }
}

fn shell(command: &str) -> Command {
    if cfg!(windows) {
        let mut cmd = Command::new("cmd");
        cmd.args(["/C", command]);
        cmd
    } else {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", command]);
        cmd
    }
}

/// Kills the child (its process group on Unix) and reaps it.
fn kill(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: a plain kill(2) of the process group this runner created for the child.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// An error of a closed engine with the process's exit status, once it has one.
fn with_status(e: EngineError, child: &mut Child) -> EngineError {
    match e {
        EngineError::Closed { command, .. } => {
            let mut status = None;
            for _ in 0..40 {
                if let Ok(Some(s)) = child.try_wait() {
                    status = Some(match s.code() {
                        Some(code) => format!("exited with status {code}"),
                        None => format!("ended by {s}"),
                    });
                    break;
                }
                std::thread::sleep(Duration::from_millis(25));
            }
            EngineError::Closed { command, status }
        }
        other => other,
    }
}
