import CSwitchyardPlugin
import Foundation
import ProviderKit

/// Drives an exported table through its C function pointers, as a host would, counting completions.
final class TableDriver: @unchecked Sendable {
    /// One call's completion: keeps the first reply for every waiter and counts every completion.
    final class Call: @unchecked Sendable {
        private let lock = NSLock()
        private var waiters: [CheckedContinuation<Data, Never>] = []
        private var reply: Data?
        private var completions = 0

        var completionCount: Int {
            lock.withLock { completions }
        }

        func completed(_ data: Data) {
            let resumed: [CheckedContinuation<Data, Never>] = lock.withLock {
                completions += 1
                guard reply == nil else { return [] }
                reply = data
                defer { waiters.removeAll() }
                return waiters
            }
            for waiter in resumed {
                waiter.resume(returning: data)
            }
        }

        /// The first reply, waiting for it if needed; may be called any number of times.
        func wait() async -> Data {
            await withCheckedContinuation { continuation in
                let ready: Data? = lock.withLock {
                    if let reply { return reply }
                    waiters.append(continuation)
                    return nil
                }
                if let ready {
                    continuation.resume(returning: ready)
                }
            }
        }
    }

    let table: UnsafePointer<sy_plugin_table>
    let instance: UnsafeMutableRawPointer
    /// Kept alive as long as the instance, which holds its table's context.
    let host: ScriptedHost
    private let lock = NSLock()
    private var calls: [Call] = []

    init(table: UnsafePointer<sy_plugin_table>, host: ScriptedHost) {
        self.table = table
        self.host = host
        instance = table.pointee.create!(host.table)!
    }

    deinit {
        table.pointee.destroy!(instance)
    }

    /// Starts `method` with raw JSON and returns the call's completion handle.
    func start(_ callID: UInt64, method: String, json: Data) -> Call {
        let call = Call()
        lock.lock()
        calls.append(call)
        lock.unlock()
        var bytes = json
        bytes.append(0)
        bytes.withUnsafeBytes { raw in
            table.pointee.invoke!(
                instance, callID, method, raw.baseAddress!.assumingMemoryBound(to: CChar.self), json.count,
                driverCompletion,
                Unmanaged.passUnretained(call).toOpaque()
            )
        }
        return call
    }

    /// Invokes `flow` with a typed request and decodes the reply.
    func invoke<Request: Codable & Sendable, Result: Codable & Sendable>(
        _ callID: UInt64, _ flow: Flow, _ request: Request, account: AccountContext = .test, as: Result.Type
    ) async throws -> PluginReply<Result> {
        let json = try PluginJSON.encoder().encode(PluginInvocation(account: account, request: request))
        let data = await start(callID, method: flow.rawValue, json: json).wait()
        return try PluginJSON.decoder().decode(PluginReply<Result>.self, from: data)
    }

    func cancel(_ callID: UInt64) {
        table.pointee.cancel!(instance, callID)
    }
}

private let driverCompletion: sy_completion_fn = { context, json, length in
    let call = Unmanaged<TableDriver.Call>.fromOpaque(context!).takeUnretainedValue()
    call.completed(Data(bytes: json!, count: length))
}

extension AccountContext {
    static let test = AccountContext(
        accountId: "acct-1", environment: "sandbox", baseURL: "https://provider.test",
        credentials: ["api_key": "k-secret"],
        notificationURL: "https://switchyard.test/notifications/acct-1"
    )
}

extension AuthorizeRequest {
    static func test(attempt: String = "att-1", amount: Int64 = 1250) -> AuthorizeRequest {
        AuthorizeRequest(
            paymentId: "pay-1", attemptId: attempt, merchantReference: "order-1", amount: amount, currency: "USD",
            country: "US", method: "card", captureMode: .automatic, idempotencyKey: "idem-\(attempt)"
        )
    }
}
