import SwitchyardCore

/// The merchant API version the current request is answered in; nil outside `/v1` (the operator API).
enum RequestVersion {
    @TaskLocal static var current: APIVersion?

    /// Whether the current request's version has `change` (never outside `/v1`).
    static func has(_ change: APIVersion.Change) -> Bool {
        current?.has(change) ?? false
    }
}
