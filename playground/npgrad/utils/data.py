"""torch.utils.data for tutorial code: datasets, samplers, DataLoader, random_split.

The samplers draw their orders from the engine's generator as torch's do (a shuffling
DataLoader draws a base seed, then a seed for its own generator, then a permutation), so a
seeded script sees torch's batches. Workers are not processes here: ``num_workers`` is
accepted and the batches come in the same order from this process.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Iterator, Mapping, Sequence

import numpy as np

from .._missing import missing_attribute


def _torch():
    from playground import npgrad  # at call time: npgrad imports this module while loading

    return npgrad


class Dataset:
    """A map-style dataset: ``dataset[i]`` and, for the samplers, ``len(dataset)``."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A dataset read by iterating over it (no indices, no sampler)."""

    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")


class TensorDataset(Dataset):
    """Rows of tensors of the same first size: ``dataset[i]`` is the tuple of their i-th rows."""

    def __init__(self, *tensors) -> None:
        if any(tensors[0].size(0) != tensor.size(0) for tensor in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class Subset(Dataset):
    """The items of ``dataset`` at ``indices``, in that order."""

    def __init__(self, dataset, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, index):
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __getitems__(self, indices: list[int]) -> list:
        return [self.dataset[self.indices[i]] for i in indices]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """Several datasets one after the other."""

    def __init__(self, datasets) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, index: int):
        if index < 0:
            if -index > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            index += len(self)
        part = int(np.searchsorted(self.cumulative_sizes, index, side="right"))
        start = self.cumulative_sizes[part - 1] if part else 0
        return self.datasets[part][index - start]


def random_split(dataset, lengths: Sequence[int | float], generator=None) -> list[Subset]:
    """Split ``dataset`` into non-overlapping random subsets of the given lengths (or
    fractions of its length, the remainder handed out one by one from the first)."""
    torch = _torch()
    generator = torch.default_generator if generator is None else generator
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _lengths_of_fractions(len(dataset), lengths)
    if sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = torch.randperm(sum(lengths), generator=generator).tolist()
    return [Subset(dataset, indices[end - length:end])
            for end, length in zip(itertools.accumulate(lengths), lengths, strict=True)]


def _lengths_of_fractions(total: int, fractions: Sequence[float]) -> list[int]:
    lengths = []
    for number, fraction in enumerate(fractions):
        if fraction < 0 or fraction > 1:
            raise ValueError(f"Fraction at index {number} is not between 0 and 1")
        lengths.append(int(math.floor(total * fraction)))
    for number in range(total - sum(lengths)):
        lengths[number % len(lengths)] += 1
    for number, length in enumerate(lengths):
        if length == 0:
            warnings.warn(f"Length of split at index {number} is 0. This might result in an "
                          "empty dataset.", stacklevel=2)
    return lengths


# ----- samplers -------------------------------------------------------------------------------
class Sampler:
    """Yields the indices of a dataset's items, in some order."""

    def __init__(self, data_source=None) -> None:
        pass

    def __iter__(self) -> Iterator[int]:
        raise NotImplementedError


class SequentialSampler(Sampler):
    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random order (a permutation per pass, or draws with replacement). Without a
    generator it seeds one of its own from the default generator, at each pass, as torch."""

    def __init__(self, data_source, replacement: bool = False, num_samples: int | None = None,
                 generator=None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        torch = _torch()
        count = len(self.data_source)
        generator = self.generator
        if generator is None:
            seed = int(torch.empty((), dtype=torch.int64).random_().item())
            generator = torch.Generator()
            generator.manual_seed(seed)
        if self.replacement:
            for _ in range(self.num_samples // 32):
                yield from torch.randint(count, (32,), dtype=torch.int64,
                                         generator=generator).tolist()
            yield from torch.randint(count, (self.num_samples % 32,), dtype=torch.int64,
                                     generator=generator).tolist()
            return
        for _ in range(self.num_samples // count):
            yield from torch.randperm(count, generator=generator).tolist()
        yield from torch.randperm(count, generator=generator).tolist()[:self.num_samples % count]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order."""

    def __init__(self, indices: Sequence[int], generator=None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for position in _torch().randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[position]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn by weight (torch.multinomial: with replacement unless
    told otherwise)."""

    def __init__(self, weights: Sequence[float], num_samples: int, replacement: bool = True,
                 generator=None) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or \
                num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value, but got "
                             f"replacement={replacement}")
        torch = _torch()
        weights = torch.as_tensor(weights, dtype=torch.double)
        if len(weights.shape) != 1:
            raise ValueError("weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights.shape)}")
        self.weights, self.num_samples = weights, num_samples
        self.replacement, self.generator = replacement, generator

    def __iter__(self) -> Iterator[int]:
        yield from _torch().multinomial(self.weights, self.num_samples, self.replacement,
                                        generator=self.generator).tolist()

    def __len__(self) -> int:
        return self.num_samples


def get_worker_info():
    """None: batches are made in this process (as torch says in its main process)."""
    return None


class BatchSampler(Sampler):
    """Groups another sampler's indices into lists of ``batch_size``."""

    def __init__(self, sampler, batch_size: int, drop_last: bool) -> None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError("batch_size should be a positive integer value, but got "
                             f"batch_size={batch_size}")
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self) -> Iterator[list[int]]:
        indices = iter(self.sampler)
        while batch := list(itertools.islice(indices, self.batch_size)):
            if len(batch) < self.batch_size and self.drop_last:
                return
            yield batch

    def __len__(self) -> int:
        whole, rest = divmod(len(self.sampler), self.batch_size)
        return whole + (1 if rest and not self.drop_last else 0)


# ----- collating ------------------------------------------------------------------------------
def default_collate(batch: list):
    """A list of samples as one batch: tensors stacked, numbers made tensors, tuples and
    lists collated element by element (a tuple comes back as a list, as in torch)."""
    torch = _torch()
    first = batch[0]
    if isinstance(first, torch.Tensor):
        return torch.stack(batch, 0)
    if isinstance(first, np.ndarray):
        return torch.stack([torch.as_tensor(item) for item in batch], 0)
    if isinstance(first, bool | int | float) and not isinstance(first, np.generic):
        dtype = torch.float64 if isinstance(first, float) else None
        return torch.tensor(batch, dtype=dtype)
    if isinstance(first, str | bytes):
        return batch
    if isinstance(first, Mapping):
        return {key: default_collate([item[key] for item in batch]) for key in first}
    if isinstance(first, tuple) and hasattr(first, "_fields"):  # a named tuple
        return type(first)(*(default_collate(list(items)) for items in zip(*batch, strict=True)))
    if isinstance(first, Sequence):
        if any(len(item) != len(first) for item in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(list(items)) for items in zip(*batch, strict=True)]
    raise TypeError("default_collate: batch must contain tensors, numpy arrays, numbers, "
                    f"dicts or lists; found {type(first)}")


def default_convert(data):
    """A sample as it is, NumPy arrays made tensors (no batching: ``batch_size=None``)."""
    if isinstance(data, np.ndarray):
        return _torch().as_tensor(data)
    return data


# ----- the loader -----------------------------------------------------------------------------
class DataLoader:
    """Batches of a dataset: in order, or shuffled with the generator given (or the default)."""

    def __init__(self, dataset, batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler=None, batch_sampler=None, num_workers: int = 0, collate_fn=None,
                 pin_memory: bool = False, drop_last: bool = False, timeout: float = 0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor: int | None = None, persistent_workers: bool = False,
                 pin_memory_device: str = "", in_order: bool = True) -> None:
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        self.dataset, self.num_workers, self.generator = dataset, num_workers, generator
        self.batch_size, self.drop_last = batch_size, drop_last
        self.pin_memory, self.timeout, self.worker_init_fn = pin_memory, timeout, worker_init_fn
        if isinstance(dataset, IterableDataset):
            sampler = None
        elif sampler is None:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else \
                SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None and sampler is not None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.sampler, self.batch_sampler = sampler, batch_sampler
        automatic = batch_sampler is not None or isinstance(dataset, IterableDataset) and \
            batch_size is not None
        self.collate_fn = collate_fn or (default_collate if automatic else default_convert)

    def __iter__(self) -> Iterator:
        # torch's iterator draws a base seed for its workers first, even with none
        torch = _torch()
        torch.empty((), dtype=torch.int64).random_(generator=self.generator)
        if isinstance(self.dataset, IterableDataset):
            return self._iterable_batches()
        if self.batch_sampler is None:
            return (self.collate_fn(self.dataset[index]) for index in self.sampler)
        return (self.collate_fn(self._fetch(indices)) for indices in self.batch_sampler)

    def _fetch(self, indices: list[int]) -> list:
        many = getattr(self.dataset, "__getitems__", None)
        return many(indices) if many is not None else [self.dataset[i] for i in indices]

    def _iterable_batches(self) -> Iterator:
        items = iter(self.dataset)
        if self.batch_size is None:
            yield from map(self.collate_fn, items)
            return
        while batch := list(itertools.islice(items, self.batch_size)):
            if len(batch) < self.batch_size and self.drop_last:
                return
            yield self.collate_fn(batch)

    def __len__(self) -> int:
        if isinstance(self.dataset, IterableDataset):
            count = len(self.dataset)
            if self.batch_size is None:
                return count
            return count // self.batch_size if self.drop_last else \
                math.ceil(count / self.batch_size)
        return len(self.batch_sampler if self.batch_sampler is not None else self.sampler)


__all__ = ["BatchSampler", "ConcatDataset", "DataLoader", "Dataset", "IterableDataset",
           "RandomSampler", "Sampler", "SequentialSampler", "Subset", "SubsetRandomSampler",
           "TensorDataset", "WeightedRandomSampler", "default_collate", "default_convert",
           "get_worker_info", "random_split"]

# What the engine lacks, said with torch's module name and what to do.
__getattr__ = missing_attribute("torch.utils.data")
