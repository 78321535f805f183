import Foundation
import HTTPTypes
import Hummingbird
import SwitchyardCore

/// Chooses the merchant API version of an authenticated `/v1` request: the `Switchyard-Version` header
/// when given (`400 invalid_api_version` for a name no version has), else the version the tenant is pinned
/// to. The version is put in the context (``AppContext/apiVersion``), which the handler reads its body
/// with (``JSONIO/body(_:_:limit:)``), and answered in the response's `Switchyard-Version` header.
struct APIVersionMiddleware: RouterMiddleware {
    typealias Context = AppContext

    /// The header a request names its version in, and the response the version it was answered in.
    static let headerName = "Switchyard-Version"
    static let header = HTTPField.Name(headerName)!

    /// The version each tenant is pinned to; a failed read fails the request (rather than answering it in
    /// a version it did not ask for).
    let versions: TenantReadCache<APIVersion>

    func handle(_ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response)
        async throws -> Response
    {
        let version = try await Self.version(request, pinned: { try await versions.value(try context.tenant) })
        var context = context
        context.apiVersion = version
        var response = try await next(request, context)
        response.headers[Self.header] = version.name
        return response
    }

    /// The version the request asks for in its header, else the tenant's pinned one.
    static func version(_ request: Request, pinned: () async throws -> APIVersion) async throws -> APIVersion {
        guard let asked = request.headers[header] else { return try await pinned() }
        guard let version = APIVersion(asked.trimmingCharacters(in: .whitespaces)) else {
            let known = APIVersion.all.map(\.name).joined(separator: ", ")
            throw APIError(
                .invalidAPIVersion, "\(Self.headerName) must be one of \(known)", param: Self.headerName)
        }
        return version
    }
}
