/* open_library(path): dlopen a shared library with the GIL released, for ctypes.CDLL(path,
 * handle=...) to use. ctypes' own dlopen holds the GIL: torch's CPU library (_vml.py) takes
 * 0.2 s to load, and a kernel loading it in the background would stop the user's script
 * that long. Where there is no dlopen (Windows) it raises NotImplementedError: ctypes loads
 * it then. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#ifndef _WIN32
#include <dlfcn.h>
#endif

PyObject *open_library(PyObject *self, PyObject *args)
{
    const char *path;
    if (!PyArg_ParseTuple(args, "s", &path))
        return NULL;
#ifdef _WIN32
    PyErr_SetString(PyExc_NotImplementedError, "no dlopen here");
    return NULL;
#else
    void *handle;
    Py_BEGIN_ALLOW_THREADS
    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL); /* ctypes.CDLL's default mode */
    Py_END_ALLOW_THREADS
    if (!handle) {
        const char *why = dlerror();
        PyErr_SetString(PyExc_OSError, why ? why : "the library could not be loaded");
        return NULL;
    }
    return PyLong_FromVoidPtr(handle);
#endif
}
