import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One run of a short-lived child process with a deadline and bounded output, waited for on the
/// calling (dedicated) thread.
///
/// The child starts in a session of its own with standard input and error on `/dev/null`, standard
/// output on a pipe, default signal dispositions and an empty signal mask. It is killed (SIGKILL) at the
/// deadline or once it wrote more than `maximumOutput` bytes.
struct ScannerRun: Sendable {
    /// What happened to the child.
    enum Outcome: Sendable, Equatable {
        /// The child could not be started (`errno`).
        case notStarted(Int32)
        /// The child exited with a status, after writing this output.
        case exited(Int32, Data)
        /// The child was ended by a signal.
        case signaled(Int32, Data)
        /// The deadline passed; the child was killed.
        case timedOut
        /// The child wrote too much; it was killed.
        case tooMuchOutput
    }

    var executable: String
    var arguments: [String]
    var timeout: Duration
    var maximumOutput: Int

    /// Starts the child and waits for it. Blocks the calling thread for at most about `timeout`.
    func run() -> Outcome {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return .notStarted(errno) }
        let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }
        let started = spawn(output: writeEnd)
        close(writeEnd)
        guard case .success(let pid) = started else {
            if case .failure(let error) = started { return .notStarted(error.code) }
            return .notStarted(EINVAL)
        }
        let deadline = ContinuousClock.now + timeout
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var open = true
        while open {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return killed(pid, .timedOut) }
            var poller = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(clamping: Self.milliseconds(remaining) + 1))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                open = false
            } else {
                output.append(contentsOf: buffer[0..<count])
                if output.count > maximumOutput { return killed(pid, .tooMuchOutput) }
            }
        }
        // Standard output closed: wait for the exit, still bounded by the deadline.
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                return Self.isSignaled(status)
                    ? .signaled(status & 0x7f, output) : .exited((status >> 8) & 0xff, output)
            }
            if result < 0 && errno != EINTR { return .exited(-1, output) }
            if ContinuousClock.now >= deadline { return killed(pid, .timedOut) }
            usleep(2_000)
        }
    }

    private func killed(_ pid: pid_t, _ outcome: Outcome) -> Outcome {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return outcome
    }

    private static func isSignaled(_ status: Int32) -> Bool {
        let signal = status & 0x7f
        return signal != 0 && signal != 0x7f
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// The variables the child gets: only what loading needs, never the server's secrets (the
    /// key-encryption key, tokens, the database URL), which a plugin's initialisers could read.
    static func environment(_ parent: [String: String]) -> [String] {
        var environment = parent.filter { ["PATH", "LD_LIBRARY_PATH", "TMPDIR", "LANG", "LC_ALL"].contains($0.key) }
        // A crash is reported by its signal; the runtime's backtracer would only slow it down.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        return environment.map { "\($0.key)=\($0.value)" }.sorted()
    }

    private struct SpawnError: Error {
        var code: Int32
    }

    /// Starts the child with `output` as its standard output.
    private func spawn(output: Int32) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        // POSIX_SPAWN_SETSID (glibc 2.26+): no controlling terminal, no shared process group.
        let setSession: Int32 = 0x80
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | setSession))

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let envp = Self.environment(ProcessInfo.processInfo.environment).map { strdup($0) }
        defer { envp.forEach { free($0) } }

        var pid: pid_t = 0
        var argvArray = argv + [nil]
        var envpArray = envp + [nil]
        let result = posix_spawn(&pid, executable, &actions, &attributes, &argvArray, &envpArray)
        return result == 0 ? .success(pid) : .failure(SpawnError(code: result))
    }
}
