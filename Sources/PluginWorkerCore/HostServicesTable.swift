import CSwitchyardPlugin
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The C signature of a plugin table's `invoke`.
package typealias PluginInvokeFunction =
    @convention(c) (
        UnsafeMutableRawPointer?, UInt64, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int, sy_completion_fn?,
        UnsafeMutableRawPointer?
    ) -> Void

/// The C signature of a plugin table's `cancel`.
package typealias PluginCancelFunction = @convention(c) (UnsafeMutableRawPointer?, UInt64) -> Void

extension UnsafeMutablePointer where Pointee == sy_host_services {
    /// A new host services table of this ABI with the given entry points and no context yet.
    package static func hostServices(
        httpSend:
            @escaping @convention(c) (
                UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int, sy_completion_fn?, UnsafeMutableRawPointer?
            ) -> Void,
        log:
            @escaping @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?)
            -> Void,
        now: @escaping @convention(c) (UnsafeMutableRawPointer?) -> Int64,
        logLevel: @escaping @convention(c) (UnsafeMutableRawPointer?) -> Int32
    ) -> UnsafeMutablePointer<sy_host_services> {
        let table = UnsafeMutablePointer<sy_host_services>.allocate(capacity: 1)
        table.initialize(
            to: sy_host_services(
                abi_version: UInt32(SWITCHYARD_PLUGIN_ABI_VERSION),
                struct_size: UInt32(MemoryLayout<sy_host_services>.size), host_context: nil, http_send: httpSend,
                log: log, now_ms: now, log_level: logLevel))
        return table
    }
}

/// A C completion with its context, called exactly once with a NUL-terminated buffer.
package struct HostCompletion: @unchecked Sendable {
    package let function: sy_completion_fn
    package let context: UnsafeMutableRawPointer?

    package init(function: sy_completion_fn, context: UnsafeMutableRawPointer?) {
        self.function = function
        self.context = context
    }

    package func complete(_ json: Data) {
        var bytes = json
        bytes.append(0)
        bytes.withUnsafeBytes { raw in
            function(context, raw.baseAddress?.assumingMemoryBound(to: CChar.self), json.count)
        }
    }
}
