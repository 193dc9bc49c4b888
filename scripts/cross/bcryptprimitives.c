/*
 * A stand-in for Windows' bcryptprimitives.dll, for the Wine smoke test only
 * (scripts/cross/smoke). Rust's standard library (1.78 and later) draws random
 * bytes from ProcessPrng in that DLL, which Wine 8 (Debian 12) does not ship.
 * This one answers ProcessPrng from RtlGenRandom (advapi32's SystemFunction036),
 * which Wine has. Real Windows has the real DLL and never loads this file: it is
 * built into the smoke test's scratch folder, never into a release archive.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG part = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, part))
            return FALSE;
        data += part;
        length -= part;
    }
    return TRUE;
}
