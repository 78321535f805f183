/*
 * Linked into a fixture plugin: defines a Swift runtime entry point, as a plugin built with
 * -static-stdlib carries the whole runtime.
 */
void *swift_retain(void *object) { return object; }
