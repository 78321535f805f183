import Foundation
import Logging
import PluginHost
import ProviderKit
import SwitchyardTestSupport
import Synchronization
import TestWaiting
import Testing

/// Plugins in worker processes: crashes, hangs and blocking calls cost the plugin's calls, never the host.
@Suite("Plugin workers")
struct WorkerIsolationTests {
    private static func settings(
        deadline: Duration = .seconds(20), crashLimit: Int = 3, inProcessThreads: Int = 4
    ) -> PluginRunSettings {
        var settings = PluginRunSettings()
        settings.callDeadline = deadline
        settings.cancelGrace = .milliseconds(100)
        settings.crashLimit = crashLimit
        settings.crashWindow = .seconds(300)
        settings.restartBackoff = .milliseconds(50)
        settings.inProcessThreads = inProcessThreads
        return settings
    }

    /// A registry over `directory` running plugins in workers (or as `policy` says).
    private func registry(
        _ directory: TemporaryDirectory, policy: PluginPolicy = PluginPolicy(mode: .development, allowsAnyID: true),
        services: RecordingHostServices = RecordingHostServices(), settings: PluginRunSettings = settings(),
        executable: PluginExecutable? = PluginExecutable(path: BuiltProducts.switchyard)
    ) -> PluginRegistry {
        PluginRegistry(
            directory: directory.path, policy: policy, hostServices: services, logger: .quiet,
            executable: executable, runSettings: settings)
    }

    private func install(_ defines: [String], in directory: TemporaryDirectory, as name: String) throws {
        try FixturePlugins.install(
            try FixturePlugins.build("fault_plugin.c", defines: defines), in: directory.path, as: name)
    }

    /// The error a call ends with, or `nil` when it returned an outcome.
    private func callError(_ body: () async throws -> Outcome) async -> PluginCallError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error as? PluginCallError
        }
    }

    @Test func workerServesCallsWithTheHostsServices() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FixturePlugins.install(try FixturePlugins.echo(), in: directory.path, as: "echo.so")
        let services = RecordingHostServices()
        let registry = registry(directory, services: services)
        let report = await registry.reload()
        #expect(report.loaded.map(\.id) == ["echo"])
        let plugin = try #require(await registry.plugin(id: "echo"))

        let outcome = try await plugin.authorize(.test, account: .test)
        #expect(outcome.kind == .authorized)
        #expect(outcome.providerStatus == "host-ok")
        // The request went out through the server's services, and the worker's log line came back tagged.
        #expect(services.sent.map(\.url) == ["http://127.0.0.1:9/echo"])
        // It was served on the worker channel's own event loop, where the worker's frame was read.
        #expect(services.servedOnTheirLoop == [true])
        #expect(services.logs.contains { $0.message == "echo created" && $0.metadata["plugin.id"] == "echo" })
        #expect(try await plugin.sync(.test, account: .test).providerStatus == "v1.0.0")
    }

    /// A plugin that says it returns promptly (every ProviderKit plugin) is called on the thread that reads
    /// the worker's socket, its HTTP results too; any other plugin on threads of a pool, so that one
    /// blocking in `invoke` never stops its worker reading.
    @Test(arguments: [true, false])
    func aPluginThatReturnsPromptlyIsCalledOnTheWorkersReader(_ returnsPromptly: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try install(
            ["FAULT_REPORT_THREADS"] + (returnsPromptly ? ["FIXTURE_RETURNS_PROMPTLY"] : []), in: directory,
            as: "threads.so")
        let registry = registry(directory, services: RecordingHostServices())
        await registry.reload()
        let plugin = try #require(await registry.plugin(id: "faulty"))
        let status = try #require(try await plugin.authorize(.test, account: .test).providerStatus)
        let reader = "sy-worker-read"
        if returnsPromptly {
            #expect(status == "invoke=\(reader) result=\(reader)")
        } else {
            #expect(status.hasPrefix("invoke="))
            #expect(!status.contains(reader), "\(status)")
        }
    }

    /// A plugin's line below the host's level is dropped where it is made: a worker is told the level and
    /// never sends it, and in process the bridge drops it before reading its metadata.
    @Test(arguments: [PluginIsolation.process, .inProcess])
    func aLogLineBelowTheHostsLevelNeverReachesTheHost(_ isolation: PluginIsolation) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A file name of its own: the worker's command line names the server's copy of it.
        try FixturePlugins.install(try FixturePlugins.echo(), in: directory.path, as: "quiet-echo.so")
        var policy = PluginPolicy(mode: .development, allowed: [.init(id: "echo")])
        policy.allowed[0].isolation = isolation
        let services = RecordingHostServices(logLevel: .warning)
        let registry = registry(directory, policy: policy, services: services)
        #expect(await registry.reload().loaded.map(\.id) == ["echo"])
        let plugin = try #require(await registry.plugin(id: "echo"))
        // The info line "echo created" came before the plugin was ready, and the authorisation after it.
        #expect(try await plugin.authorize(.test, account: .test).kind == .authorized)
        #expect(services.logs.isEmpty, "\(services.logs)")
        if isolation == .process {
            let arguments = Self.childWorkers().compactMap { pid in
                FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map {
                    $0.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                }
            }.filter { $0.contains { $0.contains("/quiet-echo-") } }
            #expect(arguments.count == 1)
            #expect(arguments.first?.suffix(2) == ["--log-level", "\(PluginLogLevel.warning.rawValue)"])
        }
    }

    @Test func crashInCreateIsRefusedAndTheHostSurvives() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try install(["FAULT_CRASH_IN_CREATE"], in: directory, as: "crash-create.so")
        try FixturePlugins.install(try FixturePlugins.echo(), in: directory.path, as: "echo.so")
        let registry = registry(directory)
        let report = await registry.reload()
        #expect(report.loaded.map(\.id) == ["echo"])
        let refusal = try #require(report.refused.first)
        #expect(refusal.code == "create_failed")
        #expect(refusal.reason.contains("signal 11"))
        #expect(await registry.plugin(id: "faulty") == nil)
        #expect(try await #require(await registry.plugin(id: "echo")).sync(.test, account: .test).kind == .succeeded)
    }

    @Test func crashAfterSendingIsUnknownRestartsAndQuarantinesByDigest() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try install(["FAULT_CRASH_AFTER_SEND"], in: directory, as: "faulty.so")
        let services = RecordingHostServices()
        let registry = registry(directory, services: services)
        await registry.reload()
        for crash in 1...3 {
            let plugin = try #require(await registry.plugin(id: "faulty"), "crash \(crash)")
            // The worker restarts after a short backoff: wait until it answers again.
            try await eventually { (try? await plugin.sync(.test, account: .test)) != nil }
            let error = await callError { try await plugin.authorize(.test, account: .test) }
            // The host saw the plugin's send before the worker died: the provider may have the payment.
            #expect(error?.code == .workerLost, "crash \(crash)")
            #expect(error?.message.contains("signal 11") == true)
        }
        #expect(services.sent.count == 3)
        try await eventually { await registry.plugin(id: "faulty") == nil }
        let snapshot = await registry.snapshot()
        #expect(snapshot.loaded.isEmpty)
        let quarantined = try #require(snapshot.quarantined.first)
        #expect(quarantined.id == "faulty")
        #expect(quarantined.reason.contains("3 worker deaths"))

        // A new build (a new digest) lifts the quarantine.
        try install(["FAULT_CRASH_AFTER_SEND", "FIXTURE_VERSION=\"1.0.1\""], in: directory, as: "faulty.so")
        let report = await registry.reload()
        #expect(report.loaded.map(\.id) == ["faulty"])
        #expect(await registry.snapshot().quarantined.isEmpty)
        #expect(try await #require(await registry.plugin(id: "faulty")).sync(.test, account: .test).kind == .authorized)
    }

    @Test func hangAfterSendingIsAnsweredAtTheDeadline() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try install(["FAULT_HANG"], in: directory, as: "hang.so")
        let registry = registry(directory, settings: Self.settings(deadline: .milliseconds(500)))
        await registry.reload()
        let plugin = try #require(await registry.plugin(id: "faulty"))
        let started = ContinuousClock.now
        let error = await callError { try await plugin.authorize(.test, account: .test) }
        #expect(error?.code == .deadlineExceeded)
        #expect(ContinuousClock.now - started < .seconds(10))
        // The worker itself is fine: other calls still work.
        #expect(try await plugin.sync(.test, account: .test).kind == .authorized)
    }

    @Test func blockBeforeSendingIsNotSentAtTheDeadline() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try install(["FAULT_BLOCK", "FAULT_BLOCK_SECONDS=3"], in: directory, as: "block.so")
        let registry = registry(directory, settings: Self.settings(deadline: .milliseconds(300)))
        await registry.reload()
        let plugin = try #require(await registry.plugin(id: "faulty"))
        let error = await callError { try await plugin.authorize(.test, account: .test) }
        #expect(error?.code == .deadlineBeforeSend)
    }

    @Test func inProcessCallQueuedAtItsDeadlineNeverStarts() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try install(["FAULT_BLOCK", "FAULT_BLOCK_SECONDS=2"], in: directory, as: "block.so")
        var policy = PluginPolicy(mode: .development, allowed: [.init(id: "faulty")])
        policy.allowed[0].isolation = .inProcess
        let services = RecordingHostServices()
        let registry = registry(
            directory, policy: policy, services: services,
            settings: Self.settings(deadline: .milliseconds(300), inProcessThreads: 1))
        await registry.reload()
        let plugin = try #require(await registry.plugin(id: "faulty"))
        async let first = callError { try await plugin.authorize(.test, account: .test) }
        async let second = callError { try await plugin.authorize(.test, account: .test) }
        let errors = await [first, second]
        #expect(errors.map { $0?.code } == [.deadlineBeforeSend, .deadlineBeforeSend])
        // Only the call that reached the plugin ever sends (after its block); the queued one never ran.
        try await Poll.until("the blocked call's send", within: .seconds(10)) { services.sent.count >= 1 }
        // The plugin's one thread takes its jobs in order: had the queued call started, it would block the
        // thread for 2 s again, and a sync queued behind it would miss its 300 ms deadline. Its answer is the
        // event that every job before it has run.
        #expect(try await plugin.sync(.test, account: .test).kind == .authorized)
        #expect(services.sent.count == 1)
    }

    @Test(arguments: [PluginIsolation.process, .inProcess])
    func blockingInvokeLeavesTheCooperativePoolFree(_ isolation: PluginIsolation) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try install(["FAULT_BLOCK", "FAULT_BLOCK_SECONDS=3"], in: directory, as: "block.so")
        try FixturePlugins.install(try FixturePlugins.echo(), in: directory.path, as: "echo.so")
        var policy = PluginPolicy(mode: .development, allowed: [.init(id: "faulty"), .init(id: "echo")])
        policy.allowed[0].isolation = isolation
        policy.allowed[1].isolation = isolation
        let registry = registry(directory, policy: policy)
        await registry.reload()
        let blocking = try #require(await registry.plugin(id: "faulty"))
        let echo = try #require(await registry.plugin(id: "echo"))
        // More blocked calls than this machine has cores; each holds its plugin for 3 s.
        let ended = EndedCalls()
        let blocked = Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<(ProcessInfo.processInfo.activeProcessorCount + 2) {
                    group.addTask {
                        _ = try? await blocking.authorize(.test, account: .test)
                        ended.count.withLock { $0 += 1 }
                    }
                }
            }
        }
        // The blocked calls have no event of their own before they end: they are given a moment to reach
        // their plugin, which is what makes the echo call below meaningful.
        try await Task.sleep(for: .milliseconds(300))
        let started = ContinuousClock.now
        #expect(try await echo.sync(.test, account: .test).kind == .succeeded)
        print("echo sync while \(isolation.rawValue) calls block: \(ContinuousClock.now - started)")
        // The echo answered while every blocked call still held its plugin: it never waited behind them.
        #expect(ended.count.withLock { $0 } == 0)
        await blocked.value
        #expect(ended.count.withLock { $0 } == ProcessInfo.processInfo.activeProcessorCount + 2)
    }

    /// A plugin in a worker cannot open a socket or a file for writing: `http_send`, under the server's
    /// egress rules, is its only way out. In process (a trusted plugin) the same calls succeed.
    @Test(arguments: [PluginIsolation.process, .inProcess])
    func aWorkersPluginReachesNeitherTheNetworkNorTheFiles(_ isolation: PluginIsolation) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try install(["FAULT_ESCAPE"], in: directory, as: "escape.so")
        var policy = PluginPolicy(mode: .development, allowed: [.init(id: "faulty")])
        policy.allowed[0].isolation = isolation
        let services = RecordingHostServices()
        let registry = registry(directory, policy: policy, services: services)
        await registry.reload()
        let plugin = try #require(await registry.plugin(id: "faulty"))
        let outcome = try await plugin.authorize(.test, account: .test)
        let expected = isolation == .process ? "socket=\(EPERM) file=\(EPERM)" : "socket=0 file=0"
        #expect(outcome.providerStatus == expected)
        #expect(!services.logs.contains { $0.message.contains("without its seccomp filter") })
    }

    @Test func workerInheritsOnlyStdioAndItsSocket() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A descriptor the host opened without close-on-exec, as a client connection may be.
        let leaked = open(directory.path, O_RDONLY)
        defer { close(leaked) }
        #expect(leaked > 3)
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(leaked)")
        try FixturePlugins.install(
            try FixturePlugins.echo(["FIXTURE_ID=\"fd-echo\""]), in: directory.path, as: "echo.so")
        let registry = registry(directory)
        #expect(await registry.reload().loaded.map(\.id) == ["fd-echo"])
        let workers = Self.childWorkers().filter { pid in
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            return fds.contains { link in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(link)")) == target
            }
        }
        #expect(workers.isEmpty, "workers holding the host's descriptor: \(workers)")
        #expect(!Self.childWorkers().isEmpty)
        withExtendedLifetime(registry) {}
    }

    @Test func workerNeverGetsTheServersSecretsInItsEnvironment() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The server's key, as `switchyard serve` may have it in its environment.
        setenv("SWITCHYARD_KEK", "kek-the-worker-must-not-see", 1)
        defer { unsetenv("SWITCHYARD_KEK") }
        try FixturePlugins.install(
            try FixturePlugins.echo(["FIXTURE_ID=\"env-echo\""]), in: directory.path, as: "echo.so")
        let registry = registry(directory)
        #expect(await registry.reload().loaded.map(\.id) == ["env-echo"])
        let environments = Self.childWorkers().compactMap { pid in
            FileManager.default.contents(atPath: "/proc/\(pid)/environ")
        }
        #expect(!environments.isEmpty)
        for environment in environments {
            #expect(!String(decoding: environment, as: UTF8.self).contains("kek-the-worker-must-not-see"))
        }
        withExtendedLifetime(registry) {}
    }

    /// A worker running a ProviderKit plugin maps FoundationEssentials and none of the rest of Foundation
    /// (Foundation, its internationalization and ICU): about 6 MiB of resident memory per worker.
    @Test func aProviderKitWorkerMapsOnlyFoundationsEssentials() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (registry, worker) = try await citconInAWorker(directory)
        let maps = try String(contentsOfFile: "/proc/\(worker)/maps", encoding: .utf8)
        let libraries = Set(maps.split(separator: "\n").compactMap { $0.split(separator: "/").last.map(String.init) })
        #expect(libraries.contains { $0.hasPrefix("libFoundationEssentials.so") })
        let heavy = libraries.filter {
            $0.hasPrefix("libFoundation.so") || $0.hasPrefix("libFoundationInternationalization")
                || $0.hasPrefix("lib_FoundationICU")
        }
        #expect(heavy.isEmpty, "the worker maps \(heavy.sorted())")
        withExtendedLifetime(registry) {}
    }

    /// A ProviderKit plugin's tasks run on the worker's reader, between its frames: after calls that send
    /// requests and get their results, the worker still has only its main thread and its reader (the
    /// runtime's pool would have started threads for the first job).
    @Test func aProviderKitPluginsTasksRunOnTheWorkersReader() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let services = RecordingHostServices()
        let (registry, worker) = try await citconInAWorker(directory, services: services)
        let plugin = try #require(await registry.plugin(id: "citcon"))
        var account = AccountContext.test
        account.accessToken = "token-1"
        for _ in 0..<3 {
            _ = try await plugin.authorize(.test, account: account)
        }
        #expect(services.sent.count == 3)
        let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(worker)/task").compactMap { tid in
            try? String(contentsOfFile: "/proc/\(worker)/task/\(tid)/comm", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(threads.count == 2, "the worker's threads: \(threads.sorted())")
        #expect(threads.contains("sy-worker-read"))
        withExtendedLifetime(registry) {}
    }

    /// The bundled Citcon plugin loaded into a worker from `directory`: the registry and the worker's pid
    /// (other tests run workers too: this one maps the plugin).
    private func citconInAWorker(
        _ directory: TemporaryDirectory, services: RecordingHostServices = RecordingHostServices()
    ) async throws -> (PluginRegistry, Int32) {
        try FileManager.default.copyItem(
            atPath: BuiltProducts.directory + "/libCitconPlugin.so", toPath: directory.path + "/libCitconPlugin.so")
        let registry = registry(directory, services: services)
        #expect(await registry.reload().loaded.map(\.id) == ["citcon"])
        let worker = try #require(
            Self.childWorkers().first { pid in
                let maps = (try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? ""
                return maps.contains("libCitconPlugin")
            })
        return (registry, worker)
    }

    /// The pids of this process's `plugin-worker` children.
    private static func childWorkers() -> [Int32] {
        let me = getpid()
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
            guard let pid = Int32(name),
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[1]) == me,
                let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                String(decoding: command, as: UTF8.self).contains("plugin-worker")
            else { return nil }
            return pid
        }
    }

    @Test func processIsolationWithoutAnExecutableIsRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FixturePlugins.install(try FixturePlugins.echo(), in: directory.path, as: "echo.so")
        let registry = registry(directory, executable: nil)
        let report = await registry.reload()
        // Without the executable nothing can be scanned either, and nothing is opened in process instead.
        #expect(report.loaded.isEmpty)
        #expect(report.refused.map(\.code) == ["scanner_unavailable"])
    }

    @Test func missingWorkerExecutableIsCreateFailed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FixturePlugins.install(try FixturePlugins.echo(), in: directory.path, as: "echo.so")
        // `switchyard` (which scans) without `switchyard-plugin-worker` beside it.
        let bin = try TemporaryDirectory()
        defer { bin.remove() }
        let switchyard = bin.path + "/switchyard"
        try FileManager.default.createSymbolicLink(atPath: switchyard, withDestinationPath: BuiltProducts.switchyard)
        let executable = PluginExecutable(path: switchyard)
        #expect(executable.workerPath.hasSuffix("/switchyard-plugin-worker"))
        #expect(!FileManager.default.fileExists(atPath: executable.workerPath))
        let report = await registry(directory, executable: executable).reload()
        #expect(report.loaded.isEmpty)
        let refusal = try #require(report.refused.first)
        #expect(refusal.code == "create_failed")
        #expect(refusal.reason.contains("switchyard-plugin-worker"))
    }

    @Test func policyNamesEachPluginsIsolation() throws {
        let json = #"{"mode":"development","allowed":[{"id":"echo","isolation":"in_process"},{"id":"citcon"}]}"#
        let policy = try JSONDecoder().decode(PluginPolicy.self, from: Data(json.utf8))
        #expect(policy.isolation(for: "echo") == .inProcess)
        #expect(policy.isolation(for: "citcon") == .process)
        #expect(policy.isolation(for: "unlisted") == .process)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                PluginPolicy.self, from: Data(#"{"mode":"development","allowed":[{"id":"x","isolation":"vm"}]}"#.utf8))
        }
    }
}

/// Waits up to ten seconds for `condition`.
func eventually(_ condition: () async -> Bool) async throws {
    do {
        try await Poll.until("condition", within: .seconds(10), every: .milliseconds(20)) { await condition() }
    } catch is WaitTimedOut {
        Issue.record("condition not met within 10 s")
    }
}

/// How many of a test's calls have returned.
private final class EndedCalls: Sendable {
    let count = Mutex(0)
}
