import CSwitchyardPlugin
import Foundation

/// One created instance of a loaded plugin image, with the host services it was given.
///
/// The image itself is never unloaded. When the last reference to the handle goes, no call can be in
/// flight (every call holds the handle), so the instance is destroyed and then its host services freed.
final class PluginInstanceHandle: @unchecked Sendable {
    private let instance: UnsafeMutableRawPointer
    private let bridge: HostServicesBridge
    private let invokeFunction: InvokeFunction
    private let cancelFunction: CancelFunction?
    private let destroyFunction: DestroyFunction
    private let lock = NSLock()
    private var nextCallID: UInt64 = 1

    typealias InvokeFunction =
        @convention(c) (
            UnsafeMutableRawPointer?, UInt64, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int, sy_completion_fn?,
            UnsafeMutableRawPointer?
        ) -> Void
    typealias CancelFunction = @convention(c) (UnsafeMutableRawPointer?, UInt64) -> Void
    typealias DestroyFunction = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// Creates an instance from `table` bound to `bridge`, or returns `nil` when `create` fails.
    init?(table: sy_plugin_table, bridge: HostServicesBridge) {
        guard let create = table.create, let invoke = table.invoke, let destroy = table.destroy,
            let instance = create(bridge.table)
        else { return nil }
        self.instance = instance
        self.bridge = bridge
        invokeFunction = invoke
        cancelFunction = table.cancel
        destroyFunction = destroy
    }

    deinit {
        destroyFunction(instance)
    }

    /// Invokes `method` with `payload` and waits for the plugin's completion.
    ///
    /// Cancelling the calling task asks the plugin to cancel the call; the plugin still completes it.
    func invoke(method: String, payload: Data) async -> Data {
        let callID = makeCallID()
        let cancellation = CallCancellation()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Data, Never>) in
                let context = PendingCalls.shared.register(continuation)
                var bytes = payload
                bytes.append(0)
                bytes.withUnsafeBytes { raw in
                    method.withCString { methodPointer in
                        invokeFunction(
                            instance, callID, methodPointer, raw.baseAddress?.assumingMemoryBound(to: CChar.self),
                            payload.count, PendingCalls.completion, context
                        )
                    }
                }
                if cancellation.markInvoked() {
                    cancel(callID)
                }
            }
        } onCancel: {
            if cancellation.requestCancel() {
                cancel(callID)
            }
        }
    }

    private func cancel(_ callID: UInt64) {
        cancelFunction?(instance, callID)
    }

    private func makeCallID() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        let id = nextCallID
        nextCallID &+= 1
        return id
    }
}

/// Orders a cancellation against the `invoke` it targets: the plugin's `cancel` is called only after
/// `invoke`, whichever of the two happens first.
private final class CallCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var invoked = false
    private var cancelRequested = false

    /// Records that `invoke` returned; true if a cancellation was requested before.
    func markInvoked() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        invoked = true
        return cancelRequested
    }

    /// Records a cancellation; true if `invoke` already happened (so cancel now).
    func requestCancel() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        cancelRequested = true
        return invoked
    }
}
