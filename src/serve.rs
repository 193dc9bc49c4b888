//! `chuhan serve [--listen 127.0.0.1:8080] [--allow-remote] [--token T]
//! [--cors-origin O] [--allow-host NAME] [--client-connections N] [--client-rate N]
//! [--engines N] [--queue N]`: the HTTP rules service and its web
//! page ([`chuhan_serve`]), until Ctrl-C.

use chuhan_serve::{ServeConfig, Server, params};
use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;

/// Arguments of `chuhan serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address and port to listen on (port 0: any free port, printed at start).
    #[arg(long, default_value = params::DEFAULT_LISTEN)]
    pub listen: SocketAddr,
    /// Allow an address other than loopback (127.0.0.1, ::1): the service is then
    /// reachable from the network; combine with --token.
    #[arg(long)]
    pub allow_remote: bool,
    /// Require `Authorization: Bearer TOKEN` on every API request (default: the
    /// CHUHAN_SERVE_TOKEN environment variable, if set, which keeps the token out
    /// of the process list). The page takes it from its address:
    /// http://host:port/#token=TOKEN.
    #[arg(long)]
    pub token: Option<String>,
    /// Let pages from this origin call the API (CORS), e.g. https://club.example;
    /// off by default.
    #[arg(long, value_name = "ORIGIN")]
    pub cors_origin: Option<String>,
    /// Also answer to this host name (the Host header), e.g. the name the club's
    /// DNS gives the server; repeatable; `*` answers to any name. localhost and
    /// IP addresses are always answered; other names are refused (403), which
    /// keeps a web page that rebinds its own name to 127.0.0.1 out.
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// Connections one client address may hold open at once (0: no limit).
    #[arg(long, default_value_t = params::CLIENT_CONNECTIONS, value_name = "N")]
    pub client_connections: usize,
    /// Requests per second one client address may send, in bursts of twice as
    /// many (0: no limit); more are answered 429.
    #[arg(long, default_value_t = params::CLIENT_RATE, value_name = "N")]
    pub client_rate: u32,
    /// Engine instances for analysis (1 to 32).
    #[arg(long, default_value_t = params::ANALYSIS_ENGINES as u16,
          value_parser = clap::value_parser!(u16).range(1..=params::MAX_ANALYSIS_ENGINES as i64))]
    pub engines: u16,
    /// Analysis requests that may wait for an engine (0 to 256; more are
    /// answered 503).
    #[arg(long, default_value_t = params::ANALYSIS_QUEUE as u16,
          value_parser = clap::value_parser!(u16).range(0..=params::MAX_ANALYSIS_QUEUE as i64))]
    pub queue: u16,
}

/// Serves until Ctrl-C; a bad address or a port in use exits with code 2.
pub fn run(args: &ServeArgs) -> ExitCode {
    let config = ServeConfig {
        listen: args.listen,
        allow_remote: args.allow_remote,
        token: args
            .token
            .clone()
            .or_else(|| std::env::var("CHUHAN_SERVE_TOKEN").ok())
            .filter(|t| !t.is_empty()),
        cors_origin: args.cors_origin.clone(),
        engines: usize::from(args.engines),
        queue: usize::from(args.queue),
        allowed_hosts: args.allow_host.clone(),
        client_connections: args.client_connections,
        client_rate: args.client_rate,
        ..ServeConfig::default()
    };
    let remote_without_token = !config.listen.ip().is_loopback() && config.token.is_none();
    let server = match Server::bind(config) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if remote_without_token {
        eprintln!(
            "warning: listening beyond loopback without a token: anyone who can reach it may use it"
        );
    }
    println!(
        "chuhan serve: http://{}/ (Ctrl-C stops)",
        server.local_addr()
    );
    let _ = std::io::stdout().flush();
    match server.run_until_interrupted() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
