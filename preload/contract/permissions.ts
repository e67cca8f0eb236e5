// Calls and events of the permissions domain; declared by the permissions issue.
export const permissionsCalls = {} as const
export const permissionsEvents = {} as const
