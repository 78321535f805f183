import Foundation
import SwitchyardCore

extension TenantAdminService {
    /// The tenant named by the route's `{tenant}`; `404 not_found` when it is not a UUID or no tenant's id.
    func tenant(in context: AppContext) async throws -> Tenant {
        try await tenant(id: context.parameters.get("tenant").flatMap(UUID.init(uuidString:)))
    }
}
