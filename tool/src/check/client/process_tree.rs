//! The engine's process tree, ended as a whole: the engine and everything it
//! started (a wrapper script's real engine, a background job), so that no
//! process outlives the check. The one part of the checker that differs by
//! platform.
//!
//! * Unix: the engine starts in a process group of its own (its id is the
//!   engine's pid) and the group gets SIGKILL.
//! * Windows: the engine is assigned to a job object that kills its
//!   processes when closed; a process the engine starts joins the job, and
//!   closing the job's only handle ends them all. A process the engine
//!   starts in the moment between its spawn and its assignment escapes the
//!   job (Rust's `Command` cannot start it suspended); the engine itself is
//!   still killed through its own handle.
//! * Elsewhere: the engine alone is killed (by [`std::process::Child::kill`],
//!   which the caller does in any case).

use std::process::{Child, Command};

/// Starting a command so that its process tree can be ended as a whole.
pub(crate) trait OwnTree {
    /// Makes the command's process the root of a tree of its own (on Unix,
    /// a process group whose id is its pid; elsewhere nothing is needed
    /// before the spawn).
    fn own_tree(&mut self) -> &mut Self;
}

impl OwnTree for Command {
    #[cfg(unix)]
    fn own_tree(&mut self) -> &mut Self {
        use std::os::unix::process::CommandExt;
        self.process_group(0)
    }

    #[cfg(not(unix))]
    fn own_tree(&mut self) -> &mut Self {
        self
    }
}

/// A started engine's process tree, killed at most once.
pub(crate) struct ProcessTree {
    /// The engine's process group (its id is the engine's pid, see
    /// [`OwnTree::own_tree`]); `None` once it was killed.
    #[cfg(unix)]
    group: Option<rustix::process::Pid>,
    /// The job object holding the engine; `None` once it was closed, or
    /// when the engine could not be assigned to one.
    #[cfg(windows)]
    job: Option<win32job::Job>,
}

impl ProcessTree {
    /// The tree rooted at `child`, started with [`OwnTree::own_tree`].
    #[cfg(unix)]
    pub fn adopt(child: &Child) -> ProcessTree {
        let group = i32::try_from(child.id())
            .ok()
            .and_then(rustix::process::Pid::from_raw);
        ProcessTree { group }
    }

    /// The tree rooted at `child`: a job object that kills its processes
    /// when it is closed, with the engine assigned to it. When no job can
    /// be made (or the engine cannot join it), only the engine is killed.
    #[cfg(windows)]
    pub fn adopt(child: &Child) -> ProcessTree {
        use std::os::windows::io::AsRawHandle;
        let mut limits = win32job::ExtendedLimitInfo::new();
        limits.limit_kill_on_job_close();
        let job = win32job::Job::create_with_limit_info(&limits)
            .ok()
            .filter(|job| job.assign_process(child.as_raw_handle() as isize).is_ok());
        ProcessTree { job }
    }

    /// The tree rooted at `child`: the engine alone, killed by the caller.
    #[cfg(not(any(unix, windows)))]
    pub fn adopt(_child: &Child) -> ProcessTree {
        ProcessTree {}
    }

    /// Kills every process of the tree that is still running; the engine
    /// itself is also killed and reaped by the caller. Once: afterwards no
    /// process is left in it, and its id may be reused.
    #[cfg(unix)]
    pub fn kill(&mut self) {
        if let Some(group) = self.group.take() {
            // An error (no such group: every process of it has ended) is
            // what a kill would have achieved.
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        }
    }

    /// Kills every process of the tree that is still running, by closing
    /// the job's only handle.
    #[cfg(windows)]
    pub fn kill(&mut self) {
        self.job = None;
    }

    /// Nothing beyond the engine, which the caller kills.
    #[cfg(not(any(unix, windows)))]
    pub fn kill(&mut self) {}
}
