import SwitchyardCore

extension PostgresStore: TenantRepository {}
